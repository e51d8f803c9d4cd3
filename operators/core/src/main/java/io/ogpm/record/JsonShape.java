package io.ogpm.record;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import io.ogpm.config.FieldConfig;
import io.ogpm.config.PrivacyConfig;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Where the configured names sit in a JSON record, compiled once: a tree of the object keys on the
 * way to a perturbed field, a passthrough field, the id or the user. The reader follows it while it
 * parses (keys off the tree are skipped); the writer walks it to write the output. Each key's
 * output bytes ({@code "name":}) are written once here, by a JSON generator.
 *
 * <p>Output order (the tree-based reference's, so that outputs are byte-identical to it; see {@link
 * RecordPerturber}): a perturbed or passthrough value has the rank of its configuration entry
 * (perturbed fields first, in order, then passthrough fields, in order); an object's members are
 * written in the order of the smallest rank present below each of them. Passthrough values absent
 * from a record are not written.
 */
final class JsonShape {
  /** The root object: the record. */
  final Node root;

  /** How many perturbed fields; passthrough field j has rank {@code fields + j}. */
  final int fields;

  final int passthroughs;

  JsonShape(PrivacyConfig config, JsonFactory factory) {
    root = new Node(null, null);
    List<FieldConfig> fs = config.fields();
    fields = fs.size();
    passthroughs = config.passthrough().size();
    for (int i = 0; i < fields; i++) {
      root.at(fs.get(i).path(), factory).field = i;
    }
    for (int j = 0; j < passthroughs; j++) {
      root.at(split(config.passthrough().get(j)), factory).passthrough = j;
    }
    config.idField().ifPresent(name -> root.at(split(name), factory).id = true);
    config.userField().ifPresent(name -> root.at(split(name), factory).user = true);
    root.compile(fields);
  }

  static List<String> split(String dotted) {
    return List.of(dotted.split("\\.", -1));
  }

  /** A key of the record on the way to a configured name, and what it is for. */
  static final class Node {
    /** Children compared one by one up to this many; a hash map beyond. */
    static final int SCANNED = 12;

    final String name;

    /** {@code "name":} as the JSON generator writes it. */
    final byte[] key;

    /** The name's UTF-8 bytes, as an unescaped key holds it, for {@link PlainJsonScanner}. */
    private final byte[] utf8;

    /** {@link PlainJsonScanner#hash} of {@link #utf8}. */
    private final int utf8Hash;

    /**
     * Children by byte hash (open addressing, child index + 1; 0 empty), beyond {@link #SCANNED}
     * children.
     */
    private int[] byteTable;

    private int[] byteHashes;
    private final Map<String, Node> byName = new LinkedHashMap<>();

    /** Children by name, for a node of more than {@link #SCANNED} children; else null. */
    private Map<String, Node> lookup;

    private int[] hashes;
    Node[] children;

    /** Perturbed field index, or -1. */
    int field = -1;

    /** Passthrough index, or -1. */
    int passthrough = -1;

    boolean id;
    boolean user;

    /** The ranks of the output values below this node, ascending, and the child holding each. */
    int[] ranks;

    int[] rankChild;

    /** Which children the writer has written in the current record (reused). */
    boolean[] written;

    private Node(String name, byte[] key) {
      this.name = name;
      this.key = key;
      this.utf8 =
          name == null ? new byte[0] : name.getBytes(java.nio.charset.StandardCharsets.UTF_8);
      this.utf8Hash = PlainJsonScanner.hash(utf8, 0, utf8.length);
    }

    /**
     * The child with this key, or null: a key the configuration does not name. A node has few
     * children: their hashes (cached in each String) are compared in a row, cheaper than a hash
     * map's lookup; a node with many children uses the map.
     */
    Node child(String key) {
      if (lookup != null) {
        return lookup.get(key);
      }
      int hash = key.hashCode();
      for (int c = 0; c < children.length; c++) {
        if (hashes[c] == hash && key.equals(children[c].name)) {
          return children[c];
        }
      }
      return null;
    }

    /**
     * The child whose name's UTF-8 bytes are {@code in[from, from + length)} (a key without
     * escapes), or null; {@code hash} is {@link PlainJsonScanner#hash} of those bytes.
     */
    Node child(byte[] in, int from, int length, int hash) {
      if (byteTable == null) {
        for (int c = 0; c < children.length; c++) {
          if (byteHashes[c] == hash && children[c].named(in, from, length)) {
            return children[c];
          }
        }
        return null;
      }
      int mask = byteTable.length - 1;
      for (int slot = hash & mask; byteTable[slot] != 0; slot = (slot + 1) & mask) {
        Node c = children[byteTable[slot] - 1];
        if (c.utf8Hash == hash && c.named(in, from, length)) {
          return c;
        }
      }
      return null;
    }

    private boolean named(byte[] in, int from, int length) {
      return length == utf8.length && Arrays.equals(utf8, 0, length, in, from, from + length);
    }

    boolean hasChildren() {
      return children.length > 0;
    }

    private Node at(List<String> path, JsonFactory factory) {
      Node node = this;
      for (String step : path) {
        node = node.byName.computeIfAbsent(step, s -> new Node(s, keyBytes(s, factory)));
      }
      return node;
    }

    /** Freezes the children and computes the output ranks below each node. */
    private void compile(int fields) {
      children = byName.values().toArray(new Node[0]);
      hashes = byName.keySet().stream().mapToInt(String::hashCode).toArray();
      lookup = children.length > SCANNED ? new HashMap<>(byName) : null;
      byteHashes = new int[children.length];
      for (int c = 0; c < children.length; c++) {
        byteHashes[c] = children[c].utf8Hash;
      }
      if (children.length > SCANNED) {
        byteTable = new int[Integer.highestOneBit(children.length * 4)];
        int mask = byteTable.length - 1;
        for (int c = 0; c < children.length; c++) {
          int slot = byteHashes[c] & mask;
          while (byteTable[slot] != 0) {
            slot = (slot + 1) & mask;
          }
          byteTable[slot] = c + 1;
        }
      }
      written = new boolean[children.length];
      List<int[]> below = new ArrayList<>();
      for (int c = 0; c < children.length; c++) {
        children[c].compile(fields);
        for (int rank : children[c].outputRanks(fields)) {
          below.add(new int[] {rank, c});
        }
      }
      below.sort((a, b) -> Integer.compare(a[0], b[0]));
      ranks = below.stream().mapToInt(r -> r[0]).toArray();
      rankChild = below.stream().mapToInt(r -> r[1]).toArray();
    }

    /** The ranks of this node's own output value and of those below it. */
    private int[] outputRanks(int fields) {
      int own = field >= 0 ? field : passthrough >= 0 ? fields + passthrough : -1;
      int[] out = own >= 0 ? Arrays.copyOf(ranks, ranks.length + 1) : ranks;
      if (own >= 0) {
        out[ranks.length] = own;
      }
      return out;
    }
  }

  /** {@code "name":} exactly as the generator writes a field name, escapes included. */
  private static byte[] keyBytes(String name, JsonFactory factory) {
    ByteSink sink = new ByteSink();
    try (JsonGenerator g = factory.createGenerator(sink)) {
      g.writeStartObject();
      g.writeFieldName(name);
      g.writeNumber(0);
      g.writeEndObject();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    byte[] all = sink.toByteArray();
    // {"name":0} without the braces and the 0.
    return Arrays.copyOfRange(all, 1, all.length - 2);
  }
}
