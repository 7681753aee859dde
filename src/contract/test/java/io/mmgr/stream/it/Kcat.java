package io.mmgr.stream.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.common.serialization.Deserializer;

/**
 * Debian's kcat reading a topic as any consumer outside the JVM would. Its build has no Avro support
 * (it lists JSON, not Avro), so it prints the raw Confluent-framed bytes; a format with both lengths
 * ahead of the bytes keeps them exact, and the test decodes them with the scorer's serdes.
 */
final class Kcat {

    private Kcat() {
    }

    /** One record as kcat printed it: key and value bytes exactly. */
    record KcatRecord(byte[] key, byte[] value) {
    }

    /** Every committed record of the topic, from the beginning. */
    static List<KcatRecord> read(String bootstrapServers, String topic) throws Exception {
        Process p = new ProcessBuilder("kcat", "-C", "-b", bootstrapServers, "-t", topic, "-o", "beginning", "-e", "-q",
                "-X", "isolation.level=read_committed", "-f", "%K %S\\n%k%s").redirectErrorStream(true).start();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        p.getInputStream().transferTo(out);
        assertThat(p.waitFor(120, TimeUnit.SECONDS)).as("kcat finished").isTrue();
        byte[] b = out.toByteArray();
        assertThat(p.exitValue()).as("kcat: %s", new String(b, StandardCharsets.UTF_8)).isZero();
        List<KcatRecord> records = new ArrayList<>();
        int i = 0;
        while (i < b.length) {
            int nl = i;
            while (b[nl] != '\n') {
                nl++;
            }
            String[] lengths = new String(b, i, nl - i, StandardCharsets.US_ASCII).trim().split(" ");
            int k = Integer.parseInt(lengths[0]);
            int v = Integer.parseInt(lengths[1]);
            i = nl + 1;
            byte[] key = k < 0 ? null : Arrays.copyOfRange(b, i, i + k);
            i += Math.max(0, k);
            byte[] value = v < 0 ? null : Arrays.copyOfRange(b, i, i + v);
            i += Math.max(0, v);
            records.add(new KcatRecord(key, value));
        }
        assertThat(records).as("records kcat read from %s", topic).isNotEmpty();
        return records;
    }

    /** Records decoded, in topic order. */
    static <K, V> List<Map.Entry<K, V>> decode(List<KcatRecord> records, Deserializer<K> keys, Deserializer<V> values, String topic) {
        List<Map.Entry<K, V>> out = new ArrayList<>();
        for (KcatRecord r : records) {
            out.add(new java.util.AbstractMap.SimpleEntry<>(keys.deserialize(topic, r.key()),
                    r.value() == null ? null : values.deserialize(topic, r.value())));
        }
        return out;
    }

    /** The latest value per key, as a compacted topic's readers see it. */
    static <K, V> Map<K, V> latest(List<KcatRecord> records, Deserializer<K> keys, Deserializer<V> values, String topic) {
        Map<K, V> out = new LinkedHashMap<>();
        for (Map.Entry<K, V> e : decode(records, keys, values, topic)) {
            if (e.getValue() == null) {
                out.remove(e.getKey());
            } else {
                out.put(e.getKey(), e.getValue());
            }
        }
        return out;
    }
}
