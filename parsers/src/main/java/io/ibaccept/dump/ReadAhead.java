package io.ibaccept.dump;

import java.io.IOException;
import java.io.InputStream;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A stream read on a thread of its own, a few blocks ahead of its reader: decompressing the forwarding tables of a
 * large fabric (gigabytes of text) takes as long as parsing them, so the two share the machine's cores instead of
 * taking turns. Errors reach the reader as they happened; closing stops the thread.
 */
final class ReadAhead extends InputStream {
    private static final int BLOCK = 1 << 18;
    private static final int BLOCKS_AHEAD = 8;
    private static final byte[] END = new byte[0];

    private final InputStream in;
    private final BlockingQueue<Object> queue = new ArrayBlockingQueue<>(BLOCKS_AHEAD);
    private final Thread reader;
    private volatile boolean closed;
    private byte[] block = new byte[0];
    private int length, pos;
    private boolean ended;

    private ReadAhead(InputStream in, String name) {
        this.in = in;
        this.reader = new Thread(this::fill, "read-ahead " + name);
        reader.setDaemon(true);
    }

    /** in, read ahead on a thread of its own where the machine has a second core; else in itself. */
    static InputStream of(InputStream in, String name) {
        if (Runtime.getRuntime().availableProcessors() < 2) return in;
        ReadAhead r = new ReadAhead(in, name);
        r.reader.start();
        return r;
    }

    private void fill() {
        try {
            while (!closed) {
                byte[] b = new byte[BLOCK];
                int n = in.readNBytes(b, 0, BLOCK);
                if (n > 0) put(n == BLOCK ? b : java.util.Arrays.copyOf(b, n));
                if (n < BLOCK) break;
            }
            put(END);
        } catch (IOException | RuntimeException e) {
            put(e);
        }
    }

    private void put(Object o) {
        try {
            while (!closed && !queue.offer(o, 100, TimeUnit.MILLISECONDS)) {
                // the reader is behind: wait for room, unless it closed the stream
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public int read() throws IOException {
        byte[] one = new byte[1];
        return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
        if (len == 0) return 0;
        while (pos >= length) {
            if (ended) return -1;
            Object next;
            try {
                next = queue.take();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new java.io.InterruptedIOException("interrupted while reading " + reader.getName());
            }
            if (next instanceof IOException e) throw e;
            if (next instanceof RuntimeException e) throw e;
            block = (byte[]) next;
            if (block == END) {
                ended = true;
                return -1;
            }
            length = block.length;
            pos = 0;
        }
        int n = Math.min(len, length - pos);
        System.arraycopy(block, pos, b, off, n);
        pos += n;
        return n;
    }

    @Override
    public void close() throws IOException {
        closed = true;
        queue.clear();
        try {
            reader.join(10_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        in.close();
    }
}
