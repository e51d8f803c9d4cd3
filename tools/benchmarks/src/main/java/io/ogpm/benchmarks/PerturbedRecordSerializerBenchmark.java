package io.ogpm.benchmarks;

import io.ogpm.bench.BenchConfig;
import io.ogpm.config.ConfigFingerprint;
import io.ogpm.config.PrivacyConfig;
import io.ogpm.flink.PerturbedRecord;
import io.ogpm.flink.typeutils.PerturbedRecordTypeSerializer;
import io.ogpm.mechanism.random.RandomnessMode;
import io.ogpm.record.Outcome;
import io.ogpm.record.RecordPerturber;
import io.ogpm.record.Source;
import java.io.IOException;
import java.lang.reflect.Field;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.flink.api.common.serialization.SerializerConfigImpl;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.api.java.typeutils.PojoField;
import org.apache.flink.api.java.typeutils.PojoTypeInfo;
import org.apache.flink.api.java.typeutils.TypeExtractor;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.apache.kafka.common.record.TimestampType;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

/**
 * What the per-user budget's shuffle costs a perturbed record of the sample's shape in Flink's
 * serializers, single thread: serialized by the perturb task, deserialized by the budget task, then
 * copied to the chained Kafka sink (object reuse off). {@code pojo} is Flink's POJO serializer of
 * {@link PerturbedRecord} (what Flink would use without {@link PerturbedRecordTypeSerializer}),
 * {@code dedicated} the dedicated one; {@code fingerprint} whether the record crosses the shuffle
 * with the configuration's fingerprint or without it, as the job sends it (the budget operator sets
 * it after the shuffle). Each operation is one record. Run from the repository root: {@code java
 * -jar tools/benchmarks/target/benchmarks.jar PerturbedRecordSerializerBenchmark}.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
@State(Scope.Thread)
public class PerturbedRecordSerializerBenchmark {
  static final int RECORDS = 1024;

  @Param({"pojo", "dedicated"})
  public String serializer;

  @Param({"true", "false"})
  public boolean fingerprint;

  @Param("sample-data")
  public String sampleData;

  private TypeSerializer<PerturbedRecord> s;
  private PerturbedRecord[] records;
  private final DataOutputSerializer out = new DataOutputSerializer(1 << 20);
  private final DataInputDeserializer in = new DataInputDeserializer();

  @Setup(Level.Trial)
  public void setUp() throws IOException {
    Path dir = Path.of(sampleData);
    PrivacyConfig config = PrivacyConfig.parse(BenchConfig.sixFields());
    String fp = ConfigFingerprint.of(config).value();
    List<String> lines =
        Files.readAllLines(dir.resolve("motionsense-dws1.jsonl"), StandardCharsets.UTF_8);
    RecordPerturber perturber = new RecordPerturber(config, RandomnessMode.secure());
    records = new PerturbedRecord[RECORDS];
    for (int i = 0; i < RECORDS; i++) {
      Outcome o =
          perturber.perturb(
              lines.get(i).getBytes(StandardCharsets.UTF_8), Source.kafka("ogpm.raw", 0, i));
      Outcome.Perturbed p = (Outcome.Perturbed) o;
      PerturbedRecord r =
          new PerturbedRecord(
                  p.key(),
                  p.value(),
                  p.epsilon(),
                  p.user(),
                  1_767_225_600_000L + i,
                  TimestampType.LOG_APPEND_TIME)
              .from("ogpm.raw", 0, 1_000_000L + i);
      r.setFingerprint(fingerprint ? fp : null);
      records[i] = r;
    }
    s = serializer.equals("pojo") ? pojoSerializer() : PerturbedRecordTypeSerializer.INSTANCE;
  }

  /**
   * Flink's POJO serializer of the class, field by field, as the type extractor would build it
   * without the dedicated serializer.
   */
  @SuppressWarnings("unchecked")
  static TypeSerializer<PerturbedRecord> pojoSerializer() {
    List<PojoField> fields = new ArrayList<>();
    for (Field f : PerturbedRecord.class.getDeclaredFields()) {
      fields.add(
          new PojoField(
              f, (TypeInformation<Object>) TypeExtractor.createTypeInfo(f.getGenericType())));
    }
    return new PojoTypeInfo<>(PerturbedRecord.class, fields)
        .createSerializer(new SerializerConfigImpl());
  }

  /** The budget's hop: serialize, deserialize, copy to the chained sink. */
  @Benchmark
  @OperationsPerInvocation(RECORDS)
  public void shuffleAndCopy(Blackhole bh) throws IOException {
    out.clear();
    for (PerturbedRecord r : records) {
      s.serialize(r, out);
    }
    in.setBuffer(out.getSharedBuffer(), 0, out.length());
    for (int i = 0; i < RECORDS; i++) {
      bh.consume(s.copy(s.deserialize(in)));
    }
  }
}
