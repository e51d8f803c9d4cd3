package io.ogpm.reproduce;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/** Writes figures (PNG and CSV) and summary.md to a directory. */
public final class Reports {
  private Reports() {}

  public static void write(List<Figure> figures, List<Claim> claims, Path dir) {
    write(figures, claims, dir, "");
  }

  public static void write(List<Figure> figures, List<Claim> claims, Path dir, String extra) {
    try {
      Files.createDirectories(dir);
      for (Figure f : figures) {
        f.chart().writePng(dir.resolve(f.name() + ".png"));
        f.table().write(dir.resolve(f.name() + ".csv"));
      }
      Files.writeString(
          dir.resolve("summary.md"),
          Summary.markdown(claims, figures, extra),
          StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write the report to " + dir, e);
    }
  }
}
