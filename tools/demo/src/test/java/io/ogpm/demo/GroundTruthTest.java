package io.ogpm.demo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ogpm.config.FieldConfig;
import io.ogpm.config.PrivacyConfig;
import io.ogpm.mechanism.random.RandomnessMode;
import io.ogpm.record.Outcome;
import io.ogpm.record.RecordPerturber;
import io.ogpm.record.Source;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * With field sampling the demo checks each field's statistics against the records that reported it:
 * the truth counts a record's value only where its perturbed record holds that field.
 */
class GroundTruthTest {
  /** The sample's configuration with two fields per record (it samples one). */
  static final String SAMPLED =
      SampleData.config(null).replace("fields-per-record: auto", "fields-per-record: 2");

  @Test
  void aSampledFieldsTruthIsOverTheRecordsThatReportedIt() {
    PrivacyConfig config = PrivacyConfig.parse(SAMPLED);
    assertThat(config.sampling().orElseThrow().fieldsPerRecord()).isEqualTo(2);
    List<String> records = SampleData.records(null, 600);
    RecordPerturber perturber = new RecordPerturber(config, RandomnessMode.seeded(5));
    List<ConsumerRecord<byte[], byte[]>> perturbed = new ArrayList<>();
    for (int i = 0; i < records.size(); i++) {
      Outcome o =
          perturber.perturb(records.get(i).getBytes(StandardCharsets.UTF_8), Source.line(i));
      perturbed.add(
          new ConsumerRecord<>("ogpm.perturbed", 0, i, null, ((Outcome.Perturbed) o).value()));
    }
    long window = Duration.ofHours(1).toMillis();
    GroundTruth all = GroundTruth.of(records, config, "ts", null, window, 10);
    GroundTruth reported =
        GroundTruth.of(
            records, config, "ts", null, window, 10, ReportedFields.of(perturbed, config, "ts"));
    long sum = 0;
    for (FieldConfig f : config.fields()) {
      long n = reported.overall(f.name()).count;
      assertThat(n).as(f.name()).isLessThan(all.overall(f.name()).count).isPositive();
      sum += n;
    }
    assertThat(sum).as("two fields of each record").isEqualTo(2L * records.size());
  }

  @Test
  void aCellsDistributionAndQuantilesAreItsValuesOwn() {
    PrivacyConfig config =
        PrivacyConfig.parse(
            """
            fields:
              - {name: x, min: 0.0, max: 10.0, epsilon: 1.0}
              - {name: a, domain: circular, min: 0.0, max: 10.0, epsilon: 1.0}
            """);
    List<String> records = new ArrayList<>();
    // x: 1, 2, ..., 10 in another order; a: 10 is 0 on the circle [0, 10).
    for (int v : new int[] {7, 3, 10, 1, 9, 2, 8, 4, 6, 5}) {
      records.add("{\"ts\": 0, \"x\": " + v + ", \"a\": " + v + "}");
    }
    GroundTruth truth = GroundTruth.of(records, config, "ts", null, 1_000, 10);
    GroundTruth.Cell x = truth.cell(0, null, "x");
    assertThat(x.share(0.5)).isZero();
    assertThat(x.share(3)).isEqualTo(0.3);
    assertThat(x.share(3.5)).isEqualTo(0.3);
    assertThat(x.share(10)).isEqualTo(1.0);
    // inf {t : F(t) >= p}: 0.7 x 10 rounds above 7, and the 7th value is still the quantile.
    assertThat(x.quantile(0.7)).isEqualTo(7);
    assertThat(x.quantile(0.5)).isEqualTo(5);
    assertThat(x.quantile(0.51)).isEqualTo(6);
    assertThat(x.quantile(0.01)).isEqualTo(1);
    assertThat(x.quantile(0.999)).isEqualTo(10);
    GroundTruth.Cell a = truth.overall("a");
    assertThat(a.share(0)).as("10 is the circle's start").isEqualTo(0.1);
    assertThat(a.quantile(0.1)).isZero();
    assertThat(a.quantile(1.0)).isEqualTo(9);
  }

  @Test
  void theDemoRefusesASampledConfigurationItCannotMatchToItsRecords(@TempDir Path dir)
      throws Exception {
    Path noId =
        Files.writeString(
            dir.resolve("no-id.yaml"),
            SAMPLED.replace("passthrough: [id, ts, activity]", "passthrough: [ts, activity]"));
    assertThatThrownBy(() -> Demo.run(options(noId, false), new PrintWriter(new StringWriter())))
        .isInstanceOf(Demo.BadOption.class)
        .hasMessageContaining("the id-field and ts among the passthrough fields");
  }

  static Demo.Options options(Path config, boolean follow) {
    return new Demo.Options(10, null, config, null, follow, 0, Duration.ofSeconds(10), 50, 1);
  }
}
