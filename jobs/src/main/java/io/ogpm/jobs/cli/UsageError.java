package io.ogpm.jobs.cli;

/** A bad option or configuration: reported as one line on stderr, exit status 2. */
public final class UsageError extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public UsageError(String message) {
    super(message);
  }

  public UsageError(String message, Throwable cause) {
    super(message, cause);
  }
}
