package io.ogpm.record;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/**
 * The gaps kept of a text are exactly its bytes outside its slots; an input follows a gap only
 * where it holds every one of the gap's bytes, whichever byte differs (the 8-byte comparison has a
 * last word that overlaps the ones before, and gaps shorter than a word go byte by byte).
 */
class SlotGapsTest {
  // Slots: the values 1, "walk" and -2; gaps of 5, 14 (a word and an overlapping one), 8 (a word)
  // and 1 bytes.
  static final String TEXT = "{\"x\":1 ,\"activity\" :\"walk\",\"deep\":-2}";
  static final int[] STARTS = {5, 20, 34};
  static final int[] ENDS = {6, 26, 36};

  static byte[] ascii(String s) {
    return s.getBytes(StandardCharsets.US_ASCII);
  }

  static SlotGaps kept() {
    SlotGaps gaps = new SlotGaps(4, 8); // smaller than the text: keep grows it
    byte[] text = ascii(TEXT);
    gaps.keep(text, STARTS.length, STARTS, ENDS);
    return gaps;
  }

  @Test
  void keepsTheBytesOutsideTheSlots() {
    SlotGaps gaps = new SlotGaps(4, 8);
    assertThat(gaps.isKept()).isFalse();
    gaps = kept();
    assertThat(gaps.isKept()).isTrue();
    assertThat(gaps.slots()).isEqualTo(3);
    assertThat(gaps.text()).isEqualTo("{\"x\":<> ,\"activity\" :<>,\"deep\":<>}");
  }

  @Test
  void writesEachGapAsKept() {
    SlotGaps gaps = kept();
    ByteSink out = new ByteSink();
    String[] values = {"9", "\"run\"", "0.125"};
    for (int s = 0; s < 3; s++) {
      gaps.write(s, out);
      out.write(ascii(values[s]));
    }
    gaps.write(3, out);
    assertThat(new String(out.toByteArray(), StandardCharsets.US_ASCII))
        .isEqualTo("{\"x\":9 ,\"activity\" :\"run\",\"deep\":0.125}");
  }

  @Test
  void anInputFollowsAGapOnlyWithEveryByteOfIt() {
    SlotGaps gaps = kept();
    byte[] text = ascii(TEXT);
    int[] gapStart = {0, ENDS[0], ENDS[1], ENDS[2]};
    int[] gapEnd = {STARTS[0], STARTS[1], STARTS[2], text.length};
    for (int s = 0; s <= 3; s++) {
      assertThat(gaps.follows(s, text, gapStart[s])).as("gap %d", s).isEqualTo(gapEnd[s]);
      assertThat(gaps.follows(s, text, gapStart[s] + 1))
          .as("gap %d, one byte late", s)
          .isEqualTo(-1);
      for (int i = gapStart[s]; i < gapEnd[s]; i++) {
        byte[] changed = text.clone();
        changed[i] ^= 0x20;
        assertThat(gaps.follows(s, changed, gapStart[s]))
            .as("gap %d, byte %d changed", s, i)
            .isEqualTo(-1);
      }
      byte[] cut = Arrays.copyOf(text, gapEnd[s] - 1);
      assertThat(gaps.follows(s, cut, gapStart[s]))
          .as("gap %d, input ends inside it", s)
          .isEqualTo(-1);
    }
  }
}
