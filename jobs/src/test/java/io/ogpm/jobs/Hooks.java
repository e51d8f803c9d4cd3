package io.ogpm.jobs;

import io.ogpm.flink.RawRecord;
import org.apache.flink.api.common.functions.RichMapFunction;
import org.apache.flink.streaming.api.datastream.DataStream;

/** Operators that tests insert before the perturbation: a throttle and a one-time failure. */
final class Hooks {
  private Hooks() {}

  /** Sleeps a little per record, so that a failure can be caused while the job is mid-stream. */
  static DataStream<RawRecord> throttled(DataStream<RawRecord> in, long micros) {
    return in.map(new Throttle(micros)).uid("test-throttle").name("throttle");
  }

  /** Throws once, on the n-th record of a subtask's first attempt. */
  static DataStream<RawRecord> failingOnce(DataStream<RawRecord> in, int n, long micros) {
    return in.map(new FailOnce(n, micros)).uid("test-fail-once").name("fail once");
  }

  static final class Throttle extends RichMapFunction<RawRecord, RawRecord> {
    private static final long serialVersionUID = 1L;
    private final long micros;

    Throttle(long micros) {
      this.micros = micros;
    }

    @Override
    public RawRecord map(RawRecord r) throws Exception {
      Thread.sleep(micros / 1000, (int) (micros % 1000) * 1000);
      return r;
    }
  }

  static final class FailOnce extends RichMapFunction<RawRecord, RawRecord> {
    private static final long serialVersionUID = 1L;
    private final int n;
    private final long micros;
    private int seen;

    FailOnce(int n, long micros) {
      this.n = n;
      this.micros = micros;
    }

    @Override
    public RawRecord map(RawRecord r) throws Exception {
      Thread.sleep(micros / 1000, (int) (micros % 1000) * 1000);
      if (++seen == n && getRuntimeContext().getTaskInfo().getAttemptNumber() == 0) {
        throw new IllegalStateException("injected failure after " + n + " records");
      }
      return r;
    }
  }
}
