package io.ibaccept.safety;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SideInputTest {
    @TempDir
    Path tmp;

    @Test
    void aFileBeyondItsBoundIsRefusedBeforeItIsRead() throws Exception {
        Path big = tmp.resolve("rules.properties");
        try (RandomAccessFile f = new RandomAccessFile(big.toFile(), "rw")) {
            f.setLength(300L << 20); // sparse: refusing it must not read it
        }
        assertThatThrownBy(() -> SideInput.read(big, 4L << 20, "rules file")).isInstanceOf(SideInput.Refused.class)
                .hasMessage(big + ": the rules file is 300.0 MiB, more than 4 MiB: not read (not a rules file, or one that should be split)");
    }

    @Test
    void aFifoADirectoryAndBytesThatAreNotUtf8AreRefused() throws Exception {
        Path fifo = tmp.resolve("waivers.csv");
        assertThat(new ProcessBuilder("mkfifo", fifo.toString()).start().waitFor()).isZero();
        // a FIFO would block the read forever
        assertThatThrownBy(() -> SideInput.read(fifo, 1 << 20, "waivers file")).hasMessage(fifo + ": the waivers file is not a regular file");
        assertThatThrownBy(() -> SideInput.read(tmp, 1 << 20, "waivers file")).hasMessageContaining("is not a regular file");
        Path latin = Files.write(tmp.resolve("nnm"), new byte[] {'0', 'x', '1', ' ', '"', (byte) 0xe9, '"', '\n'});
        assertThatThrownBy(() -> SideInput.read(latin, 1 << 20, "node-name-map")).hasMessage(latin + ": the node-name-map is not UTF-8 text");
        assertThatThrownBy(() -> SideInput.read(tmp.resolve("absent"), 1 << 20, "contract")).hasMessageContaining("cannot read the contract");
        Path ok = Files.writeString(tmp.resolve("ok"), "memlock.min_kib=unlimited\n");
        assertThat(SideInput.read(ok, 1 << 20, "rules file")).isEqualTo("memlock.min_kib=unlimited\n");
    }
}
