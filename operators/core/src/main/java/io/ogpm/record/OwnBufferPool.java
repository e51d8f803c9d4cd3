package io.ogpm.record;

import com.fasterxml.jackson.core.util.BufferRecycler;
import com.fasterxml.jackson.core.util.RecyclerPool;

/**
 * Jackson's buffers for the parsers and generators of one perturber, kept in a field. Jackson's
 * default pool finds them through a thread-local, and in a Flink task thread the thread-local map
 * is crowded, so that lookup, once per record, is slow. One perturber is used by one thread at a
 * time and holds at most one parser and one generator at once, so a pool of its own needs no
 * synchronisation; a second buffer set is made when both are open.
 */
final class OwnBufferPool implements RecyclerPool<BufferRecycler> {
  private static final long serialVersionUID = 1L;

  private transient BufferRecycler free;

  @Override
  public BufferRecycler acquirePooled() {
    BufferRecycler r = free;
    if (r == null) {
      return new BufferRecycler();
    }
    free = null;
    return r;
  }

  @Override
  public void releasePooled(BufferRecycler r) {
    free = r;
  }
}
