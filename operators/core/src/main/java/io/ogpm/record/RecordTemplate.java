package io.ogpm.record;

/**
 * The structure of the last record {@link PlainJsonScanner} read in full, against which it replays
 * the next one ({@link PlainJsonScanner#replay}): the bytes between its scalar values (slots), and
 * per slot the kind of its value and its key's node. Only structure is kept (keys, brackets,
 * separators and whitespace), never a value.
 *
 * <p>While a record is read in full its slots are {@link #slot recorded}; at its end it {@link
 * #keepIfRecordable becomes} the template if it is recordable: at most {@value #MAX_TEMPLATE_BYTES}
 * bytes and {@value #MAX_SLOTS} slots, and every configured, id, user and passthrough key holds a
 * scalar value (a container there would have to be replayed in full).
 *
 * <p>Not thread-safe: one per scanner.
 */
final class RecordTemplate {
  /** Largest record kept as a template, in bytes: sensor records are a few hundred. */
  static final int MAX_TEMPLATE_BYTES = 4096;

  /** Most scalar values of a template. */
  static final int MAX_SLOTS = 256;

  /** Kinds of values, by their first byte ({@link #kind(byte)}); containers are in no slot. */
  static final byte CONTAINER = 0;

  static final byte STRING = 1;
  static final byte NUMBER = 2;
  static final byte LITERAL = 3;

  private final SlotGaps gaps = new SlotGaps(MAX_TEMPLATE_BYTES, MAX_SLOTS);
  private byte[] kinds = new byte[MAX_SLOTS];
  private JsonShape.Node[] nodes = new JsonShape.Node[MAX_SLOTS];

  /** The slots of the record being read in full, and whether it can become the template. */
  private boolean recording;

  private boolean recordable;
  private int slots;
  private final int[] slotStart = new int[MAX_SLOTS];
  private final int[] slotEnd = new int[MAX_SLOTS];
  private byte[] slotKind = new byte[MAX_SLOTS];
  private JsonShape.Node[] slotNode = new JsonShape.Node[MAX_SLOTS];

  /** The kind of the value starting with {@code b}. */
  static byte kind(byte b) {
    if (b == '"') {
      return STRING;
    }
    if (b == '-' || b >= '0' && b <= '9') {
      return NUMBER;
    }
    return b == '{' || b == '[' ? CONTAINER : LITERAL;
  }

  /** A record of {@code length} bytes is read in full: its slots are recorded from here. */
  void startRecording(int length) {
    recording = true;
    recordable = length <= MAX_TEMPLATE_BYTES;
    slots = 0;
  }

  /** The record read in full has ended (or been given up on): nothing more is recorded. */
  void stopRecording() {
    recording = false;
  }

  /** Whether a record is being read in full (not replayed). */
  boolean recording() {
    return recording;
  }

  /** The record being read cannot become the template. */
  void notRecordable() {
    recordable = false;
  }

  /** The scalar value at {@code in[from, to)} of the record being read in full, at {@code node}. */
  void slot(byte[] in, int from, int to, JsonShape.Node node) {
    if (slots == MAX_SLOTS) {
      recordable = false;
      return;
    }
    slotStart[slots] = from;
    slotEnd[slots] = to;
    slotKind[slots] = kind(in[from]);
    slotNode[slots++] = node;
  }

  /**
   * The record {@code input}, just read in full, becomes the template if it can: its gaps are kept,
   * its slots' kinds and nodes swapped in.
   */
  void keepIfRecordable(byte[] input) {
    if (!recordable) {
      return;
    }
    gaps.keep(input, slots, slotStart, slotEnd);
    byte[] k = kinds;
    kinds = slotKind;
    slotKind = k;
    JsonShape.Node[] n = nodes;
    nodes = slotNode;
    slotNode = n;
  }

  /** Whether there is a template (none before the first record kept). */
  boolean isKept() {
    return gaps.isKept();
  }

  /** How many slots the template has. */
  int slots() {
    return gaps.slots();
  }

  /**
   * Whether {@code in} holds the template's gap before slot {@code s} (or after the last, s =
   * {@link #slots()}) at {@code at}: {@link SlotGaps#follows}.
   */
  int follows(int s, byte[] in, int at) {
    return gaps.follows(s, in, at);
  }

  /** The kind of slot {@code s}'s value. */
  byte kind(int s) {
    return kinds[s];
  }

  /** The node of slot {@code s}'s key (null: a key the configuration does not name). */
  JsonShape.Node node(int s) {
    return nodes[s];
  }

  /** The template's structure as text, its slots marked {@code <>} (tests: it holds no value). */
  String text() {
    return gaps.text();
  }
}
