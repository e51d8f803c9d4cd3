package io.ogpm.cli;

import picocli.CommandLine.IVersionProvider;

/** The version from the jar manifest, or "development" when run from classes. */
final class Version implements IVersionProvider {
  @Override
  public String[] getVersion() {
    String v = OgpmCli.class.getPackage().getImplementationVersion();
    return new String[] {"ogpm " + (v == null ? "development" : v)};
  }
}
