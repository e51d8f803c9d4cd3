package io.ogpm.record;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ogpm.config.PrivacyConfig;
import io.ogpm.mechanism.random.RandomnessMode;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The three randomness modes: secure (the default), keyed (replay-safe, needs record ids) and
 * seeded (reproducible, for tests only); the keyed secret is copied in, never shown, and erased on
 * {@link RandomnessMode#destroy()}.
 */
class RandomnessModeTest {
  static final PrivacyConfig CONFIG =
      PrivacyConfig.parse(
          """
      id-field: id
      fields:
        - {name: x, min: 0, max: 1, epsilon: 1}
      """);
  static final String SECRET = "randomness mode test secret, 32B";

  private static byte[] secret() {
    return SECRET.getBytes(StandardCharsets.US_ASCII);
  }

  /** The perturbed bytes of records 0..n-1 (ids r0, r1...; x = 0.5 each). */
  private static List<String> outputs(RecordPerturber p, int n) {
    List<String> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      Outcome o =
          p.perturb(
              ("{\"id\":\"r" + i + "\",\"x\":0.5}").getBytes(StandardCharsets.UTF_8),
              Source.line(i + 1));
      out.add(new String(((Outcome.Perturbed) o).value(), StandardCharsets.UTF_8));
    }
    return out;
  }

  @Test
  void onlyKeyedModeNeedsRecordIds() {
    assertThat(RandomnessMode.keyed(secret()).isKeyed()).isTrue();
    assertThat(RandomnessMode.secure().isKeyed()).isFalse();
    assertThat(RandomnessMode.seeded(1).isKeyed()).isFalse();
  }

  @Test
  void aModeNamesItselfAndNeverShowsTheSecret() {
    assertThat(RandomnessMode.keyed(secret())).hasToString("keyed");
    assertThat(RandomnessMode.seeded(42)).hasToString("seeded");
    assertThat(RandomnessMode.secure()).hasToString("secure");
  }

  @Test
  void aSeededModeRepeatsItselfAndOnlyItself() {
    List<String> first = outputs(new RecordPerturber(CONFIG, RandomnessMode.seeded(7)), 20);
    assertThat(outputs(new RecordPerturber(CONFIG, RandomnessMode.seeded(7)), 20)).isEqualTo(first);
    assertThat(outputs(new RecordPerturber(CONFIG, RandomnessMode.seeded(8)), 20))
        .isNotEqualTo(first);
  }

  @Test
  void aKeyedModeRefusesSecretsThatAreNoSecretWithoutQuotingThem() {
    assertThatThrownBy(
            () -> RandomnessMode.keyed("0123456789abcde".getBytes(StandardCharsets.US_ASCII)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("the secret key must have at least 16 bytes, got 15");
    assertThatThrownBy(
            () -> RandomnessMode.keyed("k".repeat(32).getBytes(StandardCharsets.US_ASCII)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("the secret key is one byte value repeated 32 times")
        .hasMessageNotContaining("kk");
  }

  /** The caller may erase its array once the mode is made; the mode keeps its own copy. */
  @Test
  void aKeyedModeCopiesTheSecretIn() {
    List<String> expected =
        outputs(new RecordPerturber(CONFIG, RandomnessMode.keyed(secret())), 10);
    byte[] callers = secret();
    RandomnessMode mode = RandomnessMode.keyed(callers);
    Arrays.fill(callers, (byte) 0);
    assertThat(outputs(new RecordPerturber(CONFIG, mode), 10)).isEqualTo(expected);
  }

  /**
   * The operator destroys the mode as soon as its perturber is built: the perturber keeps working
   * (it holds only the derived PRF key), the mode's copy of the secret is gone and it can key
   * nothing more, and the caller's array is left to the caller.
   */
  @Test
  void destroyErasesTheModesSecretOnly() {
    List<String> expected =
        outputs(new RecordPerturber(CONFIG, RandomnessMode.keyed(secret())), 10);
    byte[] callers = secret();
    RandomnessMode mode = RandomnessMode.keyed(callers);
    RecordPerturber built = new RecordPerturber(CONFIG, mode);
    mode.destroy();
    assertThat(outputs(built, 10)).isEqualTo(expected);
    assertThat(callers).isEqualTo(secret());
    assertThatThrownBy(() -> new RecordPerturber(CONFIG, mode))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("the secret key is one byte value repeated 32 times");
    // Nothing to erase in the other modes.
    RandomnessMode.secure().destroy();
    RandomnessMode.seeded(1).destroy();
  }
}
