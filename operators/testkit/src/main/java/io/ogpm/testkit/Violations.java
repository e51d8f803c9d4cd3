package io.ogpm.testkit;

import java.util.ArrayList;
import java.util.List;

/**
 * Violations of a contract, collected so that one failure reports all of them (the first few in
 * full).
 */
final class Violations {
  static final int SHOWN = 20;

  private final List<String> shown = new ArrayList<>();
  private int count;

  void add(String rule, String detail) {
    count++;
    if (shown.size() < SHOWN) {
      shown.add("[" + rule + "] " + detail);
    }
  }

  int count() {
    return count;
  }

  void throwIfAny(String contract) {
    if (count == 0) {
      return;
    }
    StringBuilder m =
        new StringBuilder(contract)
            .append(": ")
            .append(count)
            .append(count == 1 ? " violation" : " violations");
    shown.forEach(s -> m.append("\n  ").append(s));
    if (count > shown.size()) {
      m.append("\n  ... and ").append(count - shown.size()).append(" more");
    }
    throw new AssertionError(m.toString());
  }
}
