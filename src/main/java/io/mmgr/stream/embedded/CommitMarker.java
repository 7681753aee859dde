package io.mmgr.stream.embedded;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.AbstractRequest;
import org.apache.kafka.common.requests.AbstractResponse;
import org.apache.kafka.common.requests.RequestHeader;
import org.apache.kafka.common.requests.TransactionResult;
import org.apache.kafka.common.requests.WriteTxnMarkersRequest;
import org.apache.kafka.common.requests.WriteTxnMarkersResponse;

/**
 * Writes the commit marker a coordinator decided on and never delivered to a partition, as the coordinator
 * itself would (WriteTxnMarkers, to the partition's leader). The admin client has only the abort
 * ({@code Admin#abortTransaction}); a commit goes as a request of our own, over a plain connection, so only to
 * a listener without TLS or SASL (the embedded broker's).
 */
final class CommitMarker {

    private CommitMarker() {
    }

    /** Whether the clients' settings reach the brokers over a plain connection, which this writer speaks. */
    static boolean canWrite(Map<String, Object> clientConfig) {
        Object protocol = clientConfig.get("security.protocol");
        return protocol == null || "PLAINTEXT".equalsIgnoreCase(protocol.toString());
    }

    /** Writes it; an error the broker answers with is thrown, naming the partition. */
    static void write(Node leader, TopicPartition tp, long producerId, TransactionOutcomes.Decision decision,
                      int coordinatorEpoch, Duration timeout) throws IOException {
        WriteTxnMarkersRequest.TxnMarkerEntry marker = new WriteTxnMarkersRequest.TxnMarkerEntry(producerId,
                decision.markerEpoch(), coordinatorEpoch, TransactionResult.COMMIT, List.of(tp), decision.transactionVersion());
        short version = ApiKeys.WRITE_TXN_MARKERS.latestVersion();
        WriteTxnMarkersRequest request = new WriteTxnMarkersRequest.Builder(List.of(marker)).build(version);
        RequestHeader header = new RequestHeader(ApiKeys.WRITE_TXN_MARKERS, version, "mmgr-hanging-transactions", 1);
        WriteTxnMarkersResponse response = (WriteTxnMarkersResponse) exchange(leader.host(), leader.port(), request, header,
                timeout);
        Errors error = response.errorsByProducerId().getOrDefault(producerId, Map.of()).getOrDefault(tp, Errors.NONE);
        if (error != Errors.NONE) {
            throw new IOException("the commit marker for producer " + producerId + " on " + tp + " was refused: " + error);
        }
    }

    /** One request and its response over a new plain connection, framed as Kafka's protocol frames them. */
    static AbstractResponse exchange(String host, int port, AbstractRequest request, RequestHeader header, Duration timeout)
            throws IOException {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(host, port), (int) timeout.toMillis());
            socket.setSoTimeout((int) timeout.toMillis());
            ByteBuffer out = request.serializeWithHeader(header);
            DataOutputStream w = new DataOutputStream(socket.getOutputStream());
            w.writeInt(out.remaining());
            w.write(out.array(), out.arrayOffset() + out.position(), out.remaining());
            w.flush();
            DataInputStream r = new DataInputStream(socket.getInputStream());
            byte[] body = new byte[r.readInt()];
            r.readFully(body);
            return AbstractResponse.parseResponse(ByteBuffer.wrap(body), header);
        }
    }
}
