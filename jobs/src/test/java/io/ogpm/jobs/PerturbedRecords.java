package io.ogpm.jobs;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.ogpm.config.ConfigFingerprint;
import io.ogpm.config.FieldConfig;
import io.ogpm.config.PrivacyConfig;
import io.ogpm.mechanism.Domain;
import io.ogpm.mechanism.Mechanism;
import io.ogpm.mechanism.catalog.MechanismCatalog;
import io.ogpm.mechanism.random.AesCtrSource;
import io.ogpm.record.JsonFields;
import io.ogpm.testkit.TestRecord;
import java.util.List;

/**
 * Perturbed records as the perturb job writes them (each configured field perturbed by its
 * mechanism onto the output grid, the passthrough fields copied, nothing else; the fingerprint in
 * the {@code ogpm-config} header), made in the test from seeded randomness, so that aggregation
 * tests need no perturb job.
 */
final class PerturbedRecords {
  static final ObjectMapper JSON = new ObjectMapper();

  final PrivacyConfig config;
  final Mechanism[] mechanisms;
  final ConfigFingerprint fingerprint;
  final AesCtrSource bits;

  PerturbedRecords(PrivacyConfig config, long seed) {
    this.config = config;
    this.mechanisms =
        config.fields().stream().map(f -> MechanismCatalog.of(f.spec())).toArray(Mechanism[]::new);
    this.fingerprint = ConfigFingerprint.of(config);
    this.bits = AesCtrSource.seeded(seed);
  }

  /**
   * The perturbed record of a raw one (inputs outside a field's domain clamped, or wrapped on a
   * circle).
   */
  ObjectNode perturb(JsonNode raw) {
    ObjectNode out = JSON.createObjectNode();
    for (String name : config.passthrough()) {
      JsonNode v = JsonFields.at(raw, List.of(name.split("\\.")));
      if (v != null) {
        put(out, List.of(name.split("\\.")), v);
      }
    }
    for (int i = 0; i < mechanisms.length; i++) {
      FieldConfig f = config.fields().get(i);
      JsonNode v = JsonFields.at(raw, f.path());
      if (v != null && v.isNumber()) {
        put(out, f.path(), JSON.getNodeFactory().numberNode(perturb(i, v.asDouble())));
      }
    }
    return out;
  }

  /** Field i's input x perturbed. */
  double perturb(int i, double x) {
    Domain d = mechanisms[i].domain();
    double in =
        d.isCircular()
            ? d.lo() + ((x - d.lo()) % d.width() + d.width()) % d.width()
            : Math.min(Math.max(x, d.lo()), d.hi());
    return mechanisms[i].perturb(in, bits);
  }

  private static void put(ObjectNode root, List<String> path, JsonNode value) {
    ObjectNode at = root;
    for (String step : path.subList(0, path.size() - 1)) {
      at = at.has(step) && at.get(step).isObject() ? (ObjectNode) at.get(step) : at.putObject(step);
    }
    at.set(path.get(path.size() - 1), value);
  }

  /** A Kafka record of a perturbed record, with the fingerprint header, for one partition. */
  TestRecord message(int partition, JsonNode perturbed) {
    try {
      return TestRecord.value(JSON.writeValueAsBytes(perturbed))
          .withPartition(partition)
          .withHeader(ConfigFingerprint.HEADER, fingerprint.value());
    } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
  }
}
