package io.mmgr.stream.judge;

import io.mmgr.stream.avro.JudgeVerdict;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;
import org.apache.avro.SchemaNormalization;
import org.apache.avro.io.BinaryDecoder;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.DecoderFactory;
import org.apache.avro.io.EncoderFactory;
import org.apache.avro.specific.SpecificDatumReader;
import org.apache.avro.specific.SpecificDatumWriter;
import org.rocksdb.BlockBasedTableConfig;
import org.rocksdb.BloomFilter;
import org.rocksdb.ColumnFamilyDescriptor;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.ColumnFamilyOptions;
import org.rocksdb.CompressionType;
import org.rocksdb.DBOptions;
import org.rocksdb.LRUCache;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;
import org.rocksdb.WriteBatch;
import org.rocksdb.WriteOptions;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Final verdicts by cache key, so a replayed or duplicated request never calls the judge again. On
 * disk (RocksDB, in the worker's data directory), without an entry limit, with bounded memory off the
 * Java heap (a 16 MB block cache, two 8 MB write buffers); the worker fills it from the compacted cache
 * topic ({@link CacheFollower}) and every worker follows that topic, which is how several instances
 * and restarts share it. The follower's read positions and the spend it has read are written in the
 * same batch as the entries, so a restart reads only the topic's tail. Requests for the same key that
 * arrive while a call is under way wait for that call instead of making their own (in memory: they
 * are the calls in flight).
 *
 * <p>Entries are the verdict's Avro binary under this build's schema; a store written under another
 * schema or cache-key format is emptied and read again from the topic.
 */
public final class VerdictCache implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(VerdictCache.class);
    private static final byte[] FORMAT_KEY = "format".getBytes(StandardCharsets.UTF_8);
    private static final String FORMAT = "verdicts-v1 schema=" + SchemaNormalization.parsingFingerprint64(JudgeVerdict.getClassSchema())
            + " key-format=" + JudgeSettings.CACHE_KEY_FORMAT;

    static {
        RocksDB.loadLibrary();
    }

    private final Path dir;
    private final boolean temporary;
    private final LRUCache blockCache;
    private final BloomFilter bloom;
    private final ColumnFamilyOptions cfOptions;
    private final DBOptions dbOptions;
    private final WriteOptions writeOptions;
    private final RocksDB db;
    private final ColumnFamilyHandle meta;
    private final ColumnFamilyHandle verdicts;
    private final ColumnFamilyHandle positions;
    private final ColumnFamilyHandle spend;
    private final List<ColumnFamilyHandle> handles = new ArrayList<>();
    private final SpecificDatumWriter<JudgeVerdict> writer = new SpecificDatumWriter<>(JudgeVerdict.class);
    private final SpecificDatumReader<JudgeVerdict> reader = new SpecificDatumReader<>(JudgeVerdict.class);
    private final ConcurrentHashMap<String, CompletableFuture<JudgeEngine.Outcome>> inFlight = new ConcurrentHashMap<>();
    private volatile boolean complete = true;

    private VerdictCache(Path dir, boolean temporary) {
        this.dir = dir;
        this.temporary = temporary;
        this.blockCache = new LRUCache(16L << 20);
        this.bloom = new BloomFilter(10);
        BlockBasedTableConfig table = new BlockBasedTableConfig()
                .setBlockCache(blockCache)
                .setCacheIndexAndFilterBlocks(true)
                .setFilterPolicy(bloom);
        this.cfOptions = new ColumnFamilyOptions()
                .setTableFormatConfig(table)
                .setWriteBufferSize(8L << 20)
                .setMaxWriteBufferNumber(2)
                .setCompressionType(CompressionType.LZ4_COMPRESSION);
        this.dbOptions = new DBOptions().setCreateIfMissing(true).setCreateMissingColumnFamilies(true).setMaxOpenFiles(256)
                .setKeepLogFileNum(2);
        this.writeOptions = new WriteOptions();
        try {
            Files.createDirectories(dir);
            RocksDB opened = open();
            byte[] format = opened.get(handles.get(0), FORMAT_KEY);
            if (format != null && !FORMAT.equals(new String(format, StandardCharsets.UTF_8))) {
                LOG.info("the judge cache in {} was written by another format ({}); reading it again from the cache topic", dir,
                        new String(format, StandardCharsets.UTF_8));
                closeHandles(opened);
                deleteTree(dir);
                Files.createDirectories(dir);
                opened = open();
            }
            opened.put(handles.get(0), FORMAT_KEY, FORMAT.getBytes(StandardCharsets.UTF_8));
            this.db = opened;
        } catch (RocksDBException e) {
            close(cfOptions, dbOptions, writeOptions, bloom, blockCache);
            throw new IllegalStateException("cannot open the judge cache in " + dir + " (" + e.getMessage()
                    + "); is another judge worker using this data directory?", e);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        this.meta = handles.get(0);
        this.verdicts = handles.get(1);
        this.positions = handles.get(2);
        this.spend = handles.get(3);
    }

    private RocksDB open() throws RocksDBException {
        handles.clear();
        List<ColumnFamilyDescriptor> families = List.of(
                new ColumnFamilyDescriptor(RocksDB.DEFAULT_COLUMN_FAMILY, cfOptions),
                new ColumnFamilyDescriptor("verdicts".getBytes(StandardCharsets.UTF_8), cfOptions),
                new ColumnFamilyDescriptor("positions".getBytes(StandardCharsets.UTF_8), cfOptions),
                new ColumnFamilyDescriptor("spend".getBytes(StandardCharsets.UTF_8), cfOptions));
        return RocksDB.open(dbOptions, dir.toString(), families, handles);
    }

    /** The cache in a directory (created when missing); fails with a clear message if another process holds it. */
    public static VerdictCache open(Path dir) {
        return new VerdictCache(dir, false);
    }

    /** A cache in a temporary directory, deleted on close (benchmarks, judging without a worker). */
    public static VerdictCache temporary() {
        try {
            return new VerdictCache(Files.createTempDirectory("mmgr-judge-cache"), true);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public Path directory() {
        return dir;
    }

    public Optional<JudgeVerdict> get(String key) {
        try {
            byte[] v = db.get(verdicts, key.getBytes(StandardCharsets.UTF_8));
            return v == null ? Optional.empty() : Optional.of(decode(v));
        } catch (RocksDBException e) {
            throw new IllegalStateException("judge cache read failed: " + e.getMessage(), e);
        }
    }

    /** Stores a verdict this worker just produced (its cache-topic entry follows through the follower). */
    public void put(String key, JudgeVerdict verdict) {
        try {
            db.put(verdicts, writeOptions, key.getBytes(StandardCharsets.UTF_8), encode(verdict));
        } catch (RocksDBException e) {
            throw new IllegalStateException("judge cache write failed: " + e.getMessage(), e);
        }
    }

    /**
     * Writes what the follower read, atomically: the entries, the next position of each partition and
     * the spend totals read so far.
     */
    void apply(Map<String, JudgeVerdict> entries, Map<Integer, Long> nextPositions, Map<String, CostLedger.Totals> spendTotals) {
        try (WriteBatch batch = new WriteBatch()) {
            for (var e : entries.entrySet()) {
                batch.put(verdicts, e.getKey().getBytes(StandardCharsets.UTF_8), encode(e.getValue()));
            }
            for (var p : nextPositions.entrySet()) {
                batch.put(positions, ByteBuffer.allocate(4).putInt(p.getKey()).array(),
                        ByteBuffer.allocate(8).putLong(p.getValue()).array());
            }
            for (var s : spendTotals.entrySet()) {
                CostLedger.Totals t = s.getValue();
                batch.put(spend, s.getKey().getBytes(StandardCharsets.UTF_8), ByteBuffer.allocate(32).putLong(t.calls())
                        .putLong(t.inputTokens()).putLong(t.outputTokens()).putDouble(t.costUsd()).array());
            }
            db.write(writeOptions, batch);
        } catch (RocksDBException e) {
            throw new IllegalStateException("judge cache write failed: " + e.getMessage(), e);
        }
    }

    /** The follower's next position per partition, as last written. */
    Map<Integer, Long> positions() {
        Map<Integer, Long> out = new HashMap<>();
        try (RocksIterator it = db.newIterator(positions)) {
            for (it.seekToFirst(); it.isValid(); it.next()) {
                out.put(ByteBuffer.wrap(it.key()).getInt(), ByteBuffer.wrap(it.value()).getLong());
            }
        }
        return out;
    }

    /** The spend totals the follower had read, as last written. */
    Map<String, CostLedger.Totals> spend() {
        Map<String, CostLedger.Totals> out = new HashMap<>();
        try (RocksIterator it = db.newIterator(spend)) {
            for (it.seekToFirst(); it.isValid(); it.next()) {
                ByteBuffer b = ByteBuffer.wrap(it.value());
                out.put(new String(it.key(), StandardCharsets.UTF_8),
                        new CostLedger.Totals(b.getLong(), b.getLong(), b.getLong(), b.getDouble()));
            }
        }
        return out;
    }

    /** Entries held (RocksDB's estimate; exact after a compaction). */
    public long size() {
        try {
            return db.getLongProperty(verdicts, "rocksdb.estimate-num-keys");
        } catch (RocksDBException e) {
            return -1;
        }
    }

    /** Counts the entries exactly (walks them all). */
    public long count() {
        long n = 0;
        try (RocksIterator it = db.newIterator(verdicts)) {
            for (it.seekToFirst(); it.isValid(); it.next()) {
                n++;
            }
        }
        return n;
    }

    /** Whether every entry written before the worker started has been read (a miss is then a real miss). */
    public boolean complete() {
        return complete;
    }

    void loading() {
        complete = false;
    }

    void loaded() {
        complete = true;
    }

    /** Claims the key: null when this caller should make the call, else the call already under way. */
    CompletableFuture<JudgeEngine.Outcome> claim(String key, CompletableFuture<JudgeEngine.Outcome> mine) {
        return inFlight.putIfAbsent(key, mine);
    }

    void release(String key, CompletableFuture<JudgeEngine.Outcome> mine, JudgeEngine.Outcome outcome) {
        inFlight.remove(key, mine);
        mine.complete(outcome);
    }

    private byte[] encode(JudgeVerdict v) {
        try {
            ByteArrayOutputStream out = new ByteArrayOutputStream(512);
            BinaryEncoder enc = EncoderFactory.get().directBinaryEncoder(out, null);
            synchronized (writer) {
                writer.write(v, enc);
            }
            enc.flush();
            return out.toByteArray();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private JudgeVerdict decode(byte[] bytes) {
        try {
            BinaryDecoder dec = DecoderFactory.get().binaryDecoder(bytes, null);
            synchronized (reader) {
                return reader.read(null, dec);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private void closeHandles(RocksDB opened) {
        handles.forEach(ColumnFamilyHandle::close);
        handles.clear();
        opened.close();
    }

    private static void close(AutoCloseable... all) {
        for (AutoCloseable c : all) {
            try {
                c.close();
            } catch (Exception e) {
                LOG.debug("close", e);
            }
        }
    }

    private static void deleteTree(Path root) throws IOException {
        if (!Files.exists(root)) {
            return;
        }
        try (Stream<Path> walk = Files.walk(root)) {
            for (Path p : (Iterable<Path>) walk.sorted(Comparator.reverseOrder())::iterator) {
                Files.deleteIfExists(p);
            }
        }
    }

    @Override
    public void close() {
        closeHandles(db);
        close(writeOptions, dbOptions, cfOptions, bloom, blockCache);
        if (temporary) {
            try {
                deleteTree(dir);
            } catch (IOException e) {
                LOG.debug("could not delete the temporary judge cache {}", dir, e);
            }
        }
    }
}
