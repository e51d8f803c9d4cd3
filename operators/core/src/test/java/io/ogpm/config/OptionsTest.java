package io.ogpm.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class OptionsTest {
  @Test
  void aNameIsReturnedAsGiven() {
    assertThat(Options.notBlank("topic", " ogpm.raw")).isEqualTo(" ogpm.raw");
  }

  @Test
  void aMissingOrBlankNameIsRefusedNamingTheOptionAndTheValue() {
    assertThatThrownBy(() -> Options.notBlank("groupId", null))
        .isInstanceOf(NullPointerException.class)
        .hasMessage("groupId: required");
    for (String blank : new String[] {"", " ", "\t\n"}) {
      assertThatThrownBy(() -> Options.notBlank("--raw-topic", blank))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessage("--raw-topic: must not be blank, got '" + blank + "'");
    }
  }
}
