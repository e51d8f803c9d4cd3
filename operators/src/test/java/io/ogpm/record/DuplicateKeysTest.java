package io.ogpm.record;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * The reader's own duplicate-key detection, directly: per object, nested objects apart, keys of
 * equal hash told apart, the switch to a hash set after {@value DuplicateKeys#LINEAR} keys, buffers
 * that grow, and objects forgotten on close and on reset (a hostile record may leave objects open).
 */
class DuplicateKeysTest {
  @Test
  void aKeyTwiceInOneObjectIsADuplicateKeysOfEqualHashAreNot() {
    DuplicateKeys keys = new DuplicateKeys();
    keys.open();
    assertThat("Aa".hashCode()).isEqualTo("BB".hashCode());
    assertThat(keys.add("Aa")).isTrue();
    assertThat(keys.add("BB")).as("same hash, other key").isTrue();
    assertThat(keys.add("x")).isTrue();
    assertThat(keys.add("BB")).isFalse();
    assertThat(keys.add("Aa")).isFalse();
    assertThat(keys.add("x")).isFalse();
    keys.close();
  }

  @Test
  void nestedObjectsHaveKeysOfTheirOwn() {
    DuplicateKeys keys = new DuplicateKeys();
    keys.open();
    assertThat(keys.add("a")).isTrue();
    keys.open();
    assertThat(keys.add("a")).as("the inner object's first a").isTrue();
    assertThat(keys.add("b")).isTrue();
    assertThat(keys.add("b")).isFalse();
    keys.close();
    assertThat(keys.add("b")).as("the inner object's b is not the outer's").isTrue();
    assertThat(keys.add("a")).as("back in the outer object").isFalse();
    keys.open();
    assertThat(keys.add("b")).as("a second inner object starts empty").isTrue();
    keys.close();
    keys.close();
  }

  @Test
  void anObjectOfManyKeysStillFindsEveryDuplicate() {
    DuplicateKeys keys = new DuplicateKeys();
    keys.open();
    keys.add("outer");
    keys.open();
    for (int i = 0; i < DuplicateKeys.LINEAR; i++) {
      assertThat(keys.add("k" + i)).isTrue();
    }
    assertThat(keys.add("k0")).as("at the threshold").isFalse();
    assertThat(keys.add("k" + (DuplicateKeys.LINEAR - 1))).isFalse();
    assertThat(keys.add("outer")).as("the outer object's key").isTrue();
    for (int i = DuplicateKeys.LINEAR; i < 40; i++) {
      assertThat(keys.add("k" + i)).isTrue();
    }
    for (int i = 0; i < 40; i += 3) {
      assertThat(keys.add("k" + i)).as("k%d again", i).isFalse();
    }
    keys.close();
    assertThat(keys.add("outer")).isFalse();
    assertThat(keys.add("k0")).as("the large inner object is gone").isTrue();
    keys.close();
  }

  @Test
  void aLargeObjectClosedOrResetLeavesNothingForTheNextAtItsDepth() {
    DuplicateKeys keys = new DuplicateKeys();
    keys.open();
    for (int i = 0; i < 20; i++) {
      keys.add("first" + i);
    }
    keys.close();
    keys.open();
    for (int i = 0; i < 20; i++) {
      assertThat(keys.add("second" + i)).isTrue();
    }
    assertThat(keys.add("first0")).as("a key of the closed large object").isTrue();
    assertThat(keys.add("second5")).isFalse();
    keys.open();
    for (int i = 0; i < 20; i++) {
      keys.add("inner" + i);
    }
    // A record that failed inside two objects, one of them large.
    keys.reset();
    keys.open();
    for (int i = 0; i < 20; i++) {
      assertThat(keys.add("second" + i)).as("forgotten at reset: second%d", i).isTrue();
    }
    keys.open();
    for (int i = 0; i < 20; i++) {
      assertThat(keys.add("inner" + i)).as("forgotten at reset: inner%d", i).isTrue();
    }
    keys.close();
    keys.close();
  }

  @Test
  void manyOpenObjectsGrowTheBuffersWithoutLosingAKey() {
    DuplicateKeys keys = new DuplicateKeys();
    int depth = 10;
    int perObject = DuplicateKeys.LINEAR - 1;
    for (int d = 0; d < depth; d++) {
      keys.open();
      for (int i = 0; i < perObject; i++) {
        assertThat(keys.add("d" + d + "k" + i)).isTrue();
      }
    }
    for (int d = depth - 1; d >= 0; d--) {
      for (int i = 0; i < perObject; i++) {
        assertThat(keys.add("d" + d + "k" + i)).as("depth %d key %d", d, i).isFalse();
      }
      assertThat(keys.add("d" + (d + 1) + "k0")).as("the closed inner object's key, at depth %d", d).isTrue();
      keys.close();
    }
  }
}
