/**
 * Flink type information and serializers of the library's own types (Flink's name for such a
 * package: {@code org.apache.flink.api.java.typeutils}), so that no stream of the library falls
 * back to Kryo.
 *
 * <p>{@link io.ogpm.flink.typeutils.PerturbedRecordTypeInfo} ({@link
 * org.apache.flink.annotation.PublicEvolving}) is the type of {@link
 * io.ogpm.flink.PerturbedRecord}, named by its {@code @TypeInfo}; {@link
 * io.ogpm.flink.typeutils.PerturbedRecordTypeSerializer} ({@link
 * org.apache.flink.annotation.Internal}) writes it field by field. The other record types of the
 * API are Flink POJOs and need nothing here.
 *
 * <p>Neither is in the perturb job's savepoints: no state holds a perturbed record, which only
 * crosses the network between operators. Records in flight in an unaligned checkpoint are written
 * in the serializer's format, which is therefore versioned ({@code
 * PerturbedRecordTypeSerializer.Snapshot}).
 */
package io.ogpm.flink.typeutils;
