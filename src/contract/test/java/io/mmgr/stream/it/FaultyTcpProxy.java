package io.mmgr.stream.it;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A loopback TCP proxy in front of a server, whose answers a test can hold back: it relays ({@link #pass}), holds
 * each answer back before its first byte ({@link #delay}), takes requests and never answers ({@link #silent}), or
 * drops each connection at once ({@link #refuse}). Changing the mode drops every open connection, so a client's
 * kept-alive connection cannot outlive the fault it was opened under.
 */
public final class FaultyTcpProxy implements AutoCloseable {

    private enum Mode { PASS, DELAY, SILENT, REFUSE }

    private final int targetPort;
    private final ServerSocket listener;
    private final Set<Socket> open = ConcurrentHashMap.newKeySet();
    private final Thread acceptor;
    private volatile Mode mode = Mode.PASS;
    private volatile Duration delay = Duration.ZERO;
    private volatile boolean closed;

    public FaultyTcpProxy(int targetPort) throws IOException {
        this.targetPort = targetPort;
        this.listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        this.acceptor = new Thread(this::accept, "faulty-proxy-" + listener.getLocalPort());
        acceptor.setDaemon(true);
        acceptor.start();
    }

    public int port() {
        return listener.getLocalPort();
    }

    public void pass() {
        set(Mode.PASS, Duration.ZERO);
    }

    /** Every answer starts {@code d} late. */
    public void delay(Duration d) {
        set(Mode.DELAY, d);
    }

    /** Connections are taken, requests read, and nothing is ever answered. */
    public void silent() {
        set(Mode.SILENT, Duration.ZERO);
    }

    /** Connections are closed as soon as they are taken. */
    public void refuse() {
        set(Mode.REFUSE, Duration.ZERO);
    }

    private void set(Mode m, Duration d) {
        delay = d;
        mode = m;
        for (Socket s : open) {
            quietly(s);
        }
        open.clear();
    }

    private void accept() {
        while (!closed) {
            Socket client;
            try {
                client = listener.accept();
            } catch (IOException e) {
                return;
            }
            Mode m = mode;
            if (m == Mode.REFUSE) {
                quietly(client);
                continue;
            }
            open.add(client);
            if (m == Mode.SILENT) {
                daemon(() -> drain(client), "silent");
                continue;
            }
            Duration hold = m == Mode.DELAY ? delay : Duration.ZERO;
            try {
                Socket server = new Socket(InetAddress.getLoopbackAddress(), targetPort);
                open.add(server);
                daemon(() -> relay(client, server, Duration.ZERO), "up");
                daemon(() -> relay(server, client, hold), "down");
            } catch (IOException e) {
                quietly(client);
            }
        }
    }

    private static void drain(Socket s) {
        try (InputStream in = s.getInputStream()) {
            in.transferTo(OutputStream.nullOutputStream());
        } catch (IOException e) {
            // dropped by a mode change or the client
        }
    }

    /** Copies until either side closes; the first byte waits {@code hold}. */
    private void relay(Socket from, Socket to, Duration hold) {
        try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
            byte[] buf = new byte[1 << 16];
            boolean first = true;
            int n;
            while ((n = in.read(buf)) > 0) {
                if (first && !hold.isZero()) {
                    Thread.sleep(hold.toMillis());
                }
                first = false;
                out.write(buf, 0, n);
                out.flush();
            }
        } catch (IOException e) {
            // one side went away
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            quietly(from);
            quietly(to);
            open.remove(from);
            open.remove(to);
        }
    }

    private static void daemon(Runnable r, String name) {
        Thread t = new Thread(r, "faulty-proxy-" + name);
        t.setDaemon(true);
        t.start();
    }

    private static void quietly(Socket s) {
        try {
            s.close();
        } catch (IOException e) {
            // already closed
        }
    }

    @Override
    public void close() throws IOException {
        closed = true;
        listener.close();
        set(Mode.REFUSE, Duration.ZERO);
    }
}
