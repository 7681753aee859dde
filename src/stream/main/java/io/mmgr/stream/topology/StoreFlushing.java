package io.mmgr.stream.topology;

import java.util.Map;
import org.apache.kafka.streams.state.RocksDBConfigSetter;
import org.rocksdb.Options;

/**
 * Smaller RocksDB write buffers, so that a crash costs a short restore. Since Kafka Streams 4.3 a
 * store's changelog offset is kept in the store itself and is durable only when RocksDB flushes its
 * write buffer (or the store closes cleanly); the write-ahead log is off. After a kill -9, a store is
 * restored from its last flushed offset: with Streams' 16 MiB buffers, a store of this scorer's size
 * rarely flushes and is restored almost from the start, with {@value #WRITE_BUFFER_BYTES} bytes the
 * replay is bounded by about that much of changelog per store partition.
 */
public final class StoreFlushing implements RocksDBConfigSetter {

    static final long WRITE_BUFFER_BYTES = 512L * 1024;

    @Override
    public void setConfig(String storeName, Options options, Map<String, Object> configs) {
        options.setWriteBufferSize(WRITE_BUFFER_BYTES);
    }

    @Override
    public void close(String storeName, Options options) {
        // nothing allocated here
    }
}
