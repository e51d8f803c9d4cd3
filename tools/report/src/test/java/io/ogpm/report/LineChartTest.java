package io.ogpm.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LineChartTest {

  private static final byte[] PNG_SIGNATURE = {(byte) 0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'};

  @TempDir Path dir;

  private static LineChart.Builder sample() {
    double[] x = {0.1, 0.5, 1, 2, 4};
    return LineChart.builder()
        .title("Error against privacy budget")
        .xLabel("epsilon")
        .yLabel("mean absolute error")
        .series(Series.of("ogpm", x, new double[] {9, 3, Double.NaN, 0.8, 0.3}))
        .series(Series.of("laplace", x, new double[] {12, 4, 2, 1, 0.5}, Series.Style.DASHED_LINE))
        .series(
            Series.of("exact", x, new double[] {8, 2.5, 1.2, 0.7, 0.2}, Series.Style.MARKERS_ONLY))
        .series(Series.of("staircase", x, new double[] {10, 3.5, 1.6, 0.9, 0.4}));
  }

  @Test
  void writesValidPngOfDefaultSize() throws Exception {
    Path file = dir.resolve("charts/error.png");
    sample().build().writePng(file);

    byte[] bytes = Files.readAllBytes(file);
    assertThat(Arrays.copyOf(bytes, 8)).isEqualTo(PNG_SIGNATURE);
    BufferedImage image = ImageIO.read(file.toFile());
    assertThat(image).isNotNull();
    assertThat(image.getWidth()).isEqualTo(800);
    assertThat(image.getHeight()).isEqualTo(500);
  }

  @Test
  void rendersRequestedSizeWithLogScaleAndRange() throws Exception {
    byte[] bytes = sample().logY(true).yRange(0.1, 100).size(640, 360).build().toPngBytes();

    assertThat(Arrays.copyOf(bytes, 8)).isEqualTo(PNG_SIGNATURE);
    BufferedImage image = ImageIO.read(new ByteArrayInputStream(bytes));
    assertThat(image.getWidth()).isEqualTo(640);
    assertThat(image.getHeight()).isEqualTo(360);
  }

  @Test
  void drawsSomethingBesidesBackground() throws Exception {
    BufferedImage image = ImageIO.read(new ByteArrayInputStream(sample().build().toPngBytes()));
    long coloured = 0;
    for (int px = 0; px < image.getWidth(); px++) {
      for (int py = 0; py < image.getHeight(); py++) {
        int rgb = image.getRGB(px, py) & 0xFFFFFF;
        int r = rgb >> 16;
        int g = (rgb >> 8) & 0xFF;
        int b = rgb & 0xFF;
        if (Math.max(r, Math.max(g, b)) - Math.min(r, Math.min(g, b)) > 60) {
          coloured++;
        }
      }
    }
    assertThat(coloured).as("pixels of series colours").isGreaterThan(500);
  }

  @Test
  void runsHeadless() {
    sample().build();
    assertThat(System.getProperty("java.awt.headless")).isEqualTo("true");
  }

  @Test
  void rejectsNonPositiveValueOnLogScale() {
    LineChart.Builder b =
        LineChart.builder()
            .title("t")
            .logY(true)
            .series(Series.of("ogpm", new double[] {1, 2}, new double[] {1, 0}));
    assertThatThrownBy(b::build)
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("y[1] = 0.0")
        .hasMessageContaining("'ogpm'");
  }

  @Test
  void rejectsDuplicateSeriesNamesAndEmptyCharts() {
    Series s = Series.of("ogpm", new double[] {1}, new double[] {1});
    assertThatThrownBy(() -> LineChart.builder().series(s).series(s).build())
        .hasMessageContaining("two series named 'ogpm'");
    assertThatThrownBy(() -> LineChart.builder().title("empty").build())
        .hasMessageContaining("'empty' has no series");
    Series none = Series.of("none", new double[0], new double[0]);
    assertThatThrownBy(() -> LineChart.builder().series(none).build())
        .hasMessageContaining("series 'none' has no points");
  }

  @Test
  void rejectsBadRangeAndSize() {
    assertThatThrownBy(() -> LineChart.builder().yRange(5, 1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("[5.0, 1.0]");
    assertThatThrownBy(() -> LineChart.builder().size(0, 10))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("0 x 10");
  }
}
