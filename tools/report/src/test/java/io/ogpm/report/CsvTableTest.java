package io.ogpm.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CsvTableTest {

  @TempDir Path dir;

  @Test
  void writesHeaderRowsAndFullPrecisionDoubles() throws Exception {
    Path file = dir.resolve("sub/table.csv");
    CsvTable.withHeader("name", "epsilon", "error", "n")
        .row("ogpm", 0.1, 1.0 / 3.0, 1000)
        .row("laplace", 1e-12, Double.NaN, 7L)
        .build()
        .write(file);

    List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
    assertThat(lines)
        .containsExactly(
            "name,epsilon,error,n", "ogpm,0.1,0.3333333333333333,1000", "laplace,1.0E-12,,7");
    String third = lines.get(1).split(",")[2];
    assertThat(Double.parseDouble(third)).isEqualTo(1.0 / 3.0);
  }

  @Test
  void quotesStringsWithCommasQuotesAndLineBreaks() throws Exception {
    Path file = dir.resolve("quoted.csv");
    CsvTable.withHeader("label, unit", "value")
        .row("say \"hi\"", "plain")
        .row("two\nlines", "cr\rhere")
        .build()
        .write(file);

    String text = Files.readString(file, StandardCharsets.UTF_8);
    assertThat(text)
        .isEqualTo(
            "\"label, unit\",value\n"
                + "\"say \"\"hi\"\"\",plain\n"
                + "\"two\nlines\",\"cr\rhere\"\n");
  }

  @Test
  void rejectsRowOfWrongWidth() {
    CsvTable.Builder b = CsvTable.withHeader("a", "b").row(1.0, 2.0);
    assertThatThrownBy(() -> b.row(1.0, 2.0, 3.0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("row 1 has 3 cells")
        .hasMessageContaining("2 columns");
  }

  @Test
  void rejectsCellsThatAreNeitherStringsNorNumbers() {
    assertThatThrownBy(() -> CsvTable.withHeader("a", "b").row("x", true))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("column 'b'")
        .hasMessageContaining("true");
  }

  @Test
  void rejectsDuplicateColumns() {
    assertThatThrownBy(() -> CsvTable.withHeader("x", "y", "x"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("'x' appears twice");
  }

  @Test
  void buildsWideTableFromSeriesSharingX() {
    double[] x = {0.5, 1.0, 2.0};
    Series a = Series.of("ogpm", x, new double[] {0.1, 0.2, Double.NaN});
    Series b = Series.of("laplace", x, new double[] {1.5, 2.5, 3.5});

    CsvTable table = CsvTable.fromSeries("epsilon", List.of(a, b));

    assertThat(table.header()).containsExactly("epsilon", "ogpm", "laplace");
    assertThat(table.rowCount()).isEqualTo(3);
    assertThat(table.toCsv())
        .isEqualTo("epsilon,ogpm,laplace\n0.5,0.1,1.5\n1.0,0.2,2.5\n2.0,,3.5\n");
  }

  @Test
  void wideTableRejectsDifferentX() {
    Series a = Series.of("ogpm", new double[] {1, 2, 3}, new double[] {1, 1, 1});
    Series b = Series.of("laplace", new double[] {1, 2.5, 3}, new double[] {1, 1, 1});

    assertThatThrownBy(() -> CsvTable.fromSeries("x", List.of(a, b)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("'laplace' has x[1] = 2.5")
        .hasMessageContaining("'ogpm' has x[1] = 2.0");
  }

  @Test
  void wideTableRejectsDifferentLength() {
    Series a = Series.of("ogpm", new double[] {1, 2}, new double[] {1, 1});
    Series b = Series.of("laplace", new double[] {1}, new double[] {1});

    assertThatThrownBy(() -> CsvTable.fromSeries("x", List.of(a, b)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("'laplace' has 1 points");
  }
}
