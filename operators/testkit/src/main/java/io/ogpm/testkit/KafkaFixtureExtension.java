package io.ogpm.testkit;

import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * JUnit 5 extension that starts one {@link KafkaFixture} per test class (via {@link
 * KafkaFixtures#start()}) and injects it into test, lifecycle or constructor parameters of type
 * {@link KafkaFixture}. It is closed after the class's last test.
 *
 * <p>Why per class: starting a broker costs seconds, so tests in a class share it and use their own
 * topic names instead. Nested classes reuse the enclosing class's fixture. For a test that also
 * runs Flink jobs, {@link LdpTestEnvironment} gives a broker and a MiniCluster together.
 *
 * <pre>{@code
 * @ExtendWith(KafkaFixtureExtension.class)
 * class MyTest {
 *   @Test void roundTrip(KafkaFixture kafka) { ... }
 * }
 * }</pre>
 */
public final class KafkaFixtureExtension implements BeforeAllCallback, ParameterResolver {

  private static final ExtensionContext.Namespace NAMESPACE =
      ExtensionContext.Namespace.create(KafkaFixtureExtension.class);

  @Override
  public void beforeAll(ExtensionContext context) {
    fixture(context);
  }

  @Override
  public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
    return parameter.getParameter().getType() == KafkaFixture.class;
  }

  @Override
  public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
    return fixture(context);
  }

  /** Store lookups fall back to enclosing contexts, so a test method finds its class's fixture. */
  private static KafkaFixture fixture(ExtensionContext context) {
    return context
        .getStore(NAMESPACE)
        .getOrComputeIfAbsent(
            Resource.class, k -> new Resource(KafkaFixtures.start()), Resource.class)
        .fixture;
  }

  /** Lets JUnit close the fixture when the class's store is closed. */
  private record Resource(KafkaFixture fixture)
      implements ExtensionContext.Store.CloseableResource {
    @Override
    public void close() {
      fixture.close();
    }
  }
}
