package io.ogpm.jobs.cli;

import java.util.Map;

/**
 * The command line's names of the jobs' settings. The settings builders (the jobs' and the
 * library's) name a bad option by its Java name at the start of their message ({@code "window: must
 * be positive, got PT0S"}); a user of the command line reads the option they typed ({@code
 * "--window: must be positive, got PT0S"}). One table for both job commands: a message of one job
 * never names another's option.
 */
final class OptionNames {
  private static final Map<String, String> COMMAND_LINE =
      Map.ofEntries(
          Map.entry("inputTopic", "--input-topic"),
          Map.entry("outputTopic", "--output-topic"),
          Map.entry("deadLetterTopic", "--dead-letter-topic"),
          Map.entry("groupId", "--group-id"),
          Map.entry("transactionalIdPrefix", "--transactional-id-prefix"),
          Map.entry("checkpointInterval", "--checkpoint-interval"),
          Map.entry("parallelism", "--parallelism"),
          Map.entry("groupBy", "--group-by"),
          Map.entry("timeField", "--time-field"),
          Map.entry("window", "--window"),
          Map.entry("slide", "--slide"),
          Map.entry("allowedLateness", "--allowed-lateness"),
          Map.entry("lateUpdateInterval", "--late-update-interval"),
          Map.entry("outOfOrderness", "--out-of-orderness"),
          Map.entry("idleTimeout", "--idle-timeout"),
          Map.entry("bins", "--bins"),
          Map.entry("quantiles", "--quantiles"));

  private OptionNames() {}

  /** The message with the option it starts with ({@code name:}) named as on the command line. */
  static String commandLine(String message) {
    int colon = message.indexOf(':');
    String option = colon < 0 ? null : COMMAND_LINE.get(message.substring(0, colon));
    return option == null ? message : option + message.substring(colon);
  }
}
