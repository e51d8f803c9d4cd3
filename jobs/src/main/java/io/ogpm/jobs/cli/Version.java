package io.ogpm.jobs.cli;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;
import picocli.CommandLine.IVersionProvider;

/**
 * {@code --version} of both command lines ({@code ogpm-job.jar} and {@code ogpm.jar}): the
 * project's version, written into {@code version.properties} by Maven's resource filtering. A
 * resource rather than the jar manifest, so that it holds for classes run from an IDE or a test
 * too, and survives shading (the shaded jars' manifests are rewritten).
 */
public final class Version implements IVersionProvider {
  static final String RESOURCE = "version.properties";

  /** The project's version, for example {@code 0.1.0-SNAPSHOT}. */
  public static String project() {
    try (InputStream in = Version.class.getResourceAsStream(RESOURCE)) {
      if (in == null) {
        throw new IllegalStateException(
            RESOURCE + " is missing next to " + Version.class.getName());
      }
      Properties p = new Properties();
      p.load(in);
      return p.getProperty("version");
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + RESOURCE, e);
    }
  }

  @Override
  public String[] getVersion() {
    return new String[] {"ogpm " + project()};
  }
}
