package io.ogpm.mechanism.audit;

import io.ogpm.annotation.Internal;
import io.ogpm.mechanism.random.AesCtrSource;
import io.ogpm.mechanism.random.RandomBits;
import java.util.Locale;

/**
 * A statistical privacy auditor in the spirit of StatDP (Ding et al., CCS 2018), DP-Sniper (Bichsel
 * et al., S&P 2021) and Google's stochastic tester: it searches pairs of inputs and output events
 * where a sampler's probabilities differ most, then measures the best event on fresh samples and
 * reports a lower bound on the epsilon the sampler really spends, with a stated confidence.
 *
 * <ol>
 *   <li>Inputs: the domain's ends, its middle and its quarter points; ordered pairs (numerator,
 *       denominator).
 *   <li>Events: the output range cut into {@code bins} bins, each split by whether the output could
 *       come from the denominator input at all ({@link AuditedSampler#producible}).
 *   <li>Search: {@code n} samples per input; the event with the largest Clopper-Pearson lower bound
 *       on the log ratio is kept.
 *   <li>Test: {@code n} fresh samples per input; Clopper-Pearson bounds at level {@code alpha / (2
 *       pairs)} on each side give {@code ln(p_num_low / p_den_high)}, a lower bound on the true
 *       epsilon. The largest over pairs holds with probability at least {@code 1 - alpha}
 *       (Bonferroni).
 * </ol>
 *
 * A correct eps-LDP sampler yields a bound below eps with probability at least 1 - alpha; a sampler
 * that is not eps-LDP on some event is caught once n is large enough for that event.
 */
@Internal
public final class PrivacyAuditor {
  private PrivacyAuditor() {}

  /** How hard to look. */
  public record Options(int samples, int bins, double alpha, long seed) {
    public static Options defaults() {
      return new Options(200_000, 40, 0.05, 1);
    }
  }

  /** The audit's conclusion. */
  public record Result(
      double epsilonLowerBound,
      double confidence,
      double numeratorInput,
      double denominatorInput,
      String event,
      long numeratorCount,
      long denominatorCount,
      long samples) {
    /** One line for people. */
    public String describe() {
      return String.format(
          Locale.ROOT,
          "epsilon >= %.4f with confidence %.3f: inputs %s vs %s, event %s seen %d vs %d times in %d samples each",
          epsilonLowerBound,
          confidence,
          numeratorInput,
          denominatorInput,
          event,
          numeratorCount,
          denominatorCount,
          samples);
    }
  }

  public static Result audit(AuditedSampler s, Options o) {
    double lo = s.inputLo();
    double hi = s.inputHi();
    double w = hi - lo;
    double[][] pairs = {
      {lo, hi},
      {hi, lo},
      {lo, lo + w / 2},
      {lo + w / 2, lo},
      {hi, lo + w / 2},
      {lo + w / 2, hi},
      {lo + w / 4, lo + 3 * w / 4},
      {lo + 3 * w / 4, lo + w / 4}
    };
    double alphaEach = o.alpha() / (2 * pairs.length);
    RandomBits bits = AesCtrSource.seeded(o.seed());
    Result best = null;
    for (double[] pair : pairs) {
      long[] searchNum = counts(s, pair[0], pair[1], o, bits);
      long[] searchDen = counts(s, pair[1], pair[1], o, bits);
      int event = bestEvent(searchNum, searchDen, o.samples(), alphaEach);
      long[] testNum = counts(s, pair[0], pair[1], o, bits);
      long[] testDen = counts(s, pair[1], pair[1], o, bits);
      double bound = logRatioLowerBound(testNum[event], testDen[event], o.samples(), alphaEach);
      Result r =
          new Result(
              bound,
              1 - o.alpha(),
              pair[0],
              pair[1],
              describe(event, s, o),
              testNum[event],
              testDen[event],
              o.samples());
      if (best == null || r.epsilonLowerBound() > best.epsilonLowerBound()) {
        best = r;
      }
    }
    return best;
  }

  /** Counts of each event for samples from input x; producibility judged against input den. */
  private static long[] counts(AuditedSampler s, double x, double den, Options o, RandomBits bits) {
    long[] c = new long[2 * o.bins()];
    double lo = s.outputLo();
    double width = s.outputHi() - lo;
    for (int i = 0; i < o.samples(); i++) {
      double y = s.sample(x, bits);
      int bin = (int) Math.floor((y - lo) / width * o.bins());
      bin = Math.min(Math.max(bin, 0), o.bins() - 1);
      c[2 * bin + (s.producible(den, y) ? 0 : 1)]++;
    }
    return c;
  }

  private static int bestEvent(long[] num, long[] den, long n, double alpha) {
    int best = 0;
    double bestBound = Double.NEGATIVE_INFINITY;
    for (int e = 0; e < num.length; e++) {
      if (num[e] == 0) {
        continue;
      }
      double b = logRatioLowerBound(num[e], den[e], n, alpha);
      if (b > bestBound) {
        bestBound = b;
        best = e;
      }
    }
    return best;
  }

  static double logRatioLowerBound(long kNum, long kDen, long n, double alpha) {
    double low = ClopperPearson.lower(kNum, n, alpha);
    double high = ClopperPearson.upper(kDen, n, alpha);
    return low <= 0 ? Double.NEGATIVE_INFINITY : Math.log(low / high);
  }

  private static String describe(int event, AuditedSampler s, Options o) {
    int bin = event / 2;
    double lo = s.outputLo();
    double width = (s.outputHi() - lo) / o.bins();
    return String.format(
        Locale.ROOT,
        "y in [%.6g, %.6g)%s",
        lo + bin * width,
        lo + (bin + 1) * width,
        event % 2 == 1 ? " and y not producible from the second input" : "");
  }
}
