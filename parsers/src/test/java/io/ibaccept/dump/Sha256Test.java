package io.ibaccept.dump;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.Random;
import org.junit.jupiter.api.Test;

class Sha256Test {
    @Test
    void aLargeFileGetsTheSameDigestWhoeverComputesIt() {
        byte[] data = new byte[(int) Sha256.NATIVE_FROM_BYTES + 777];
        new Random(7).nextBytes(data);
        MessageDigest large = Sha256.forSize(data.length);
        MessageDigest jdk = Sha256.jdk();
        // uneven pieces, as a stream hands them out
        for (int off = 0, step = 1; off < data.length; off += step, step = step * 3 % 70_001 + 1) {
            int n = Math.min(step, data.length - off);
            large.update(data, off, n);
            jdk.update(data, off, n);
        }
        assertThat(large.digest()).isEqualTo(jdk.digest());
        assertThat(Sha256.forSize(10).getProvider().getName()).isEqualTo("SUN");
    }

    @Test
    void nssIsUsedWhereTheJdkShipsItsConfiguration() {
        // Debian's and Red Hat's JDKs ship conf/security/nss.cfg and depend on libnss3; other JDKs hash with their own code
        boolean configured = Files.isRegularFile(Path.of(System.getProperty("java.home"), "conf", "security", "nss.cfg"))
                && java.security.Security.getProvider("SunPKCS11") != null;
        org.junit.jupiter.api.Assumptions.assumeTrue(configured, "this JDK has no NSS configuration");
        assertThat(Sha256.nativeAvailable()).isTrue();
        assertThat(Sha256.forSize(Sha256.NATIVE_FROM_BYTES).getProvider().getName()).startsWith("SunPKCS11");
    }
}
