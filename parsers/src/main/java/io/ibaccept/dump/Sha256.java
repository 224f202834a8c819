package io.ibaccept.dump;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.Provider;
import java.security.Security;
import java.util.HexFormat;

/**
 * The SHA-256 digests of the dump id. A one-shot analyze runs with C1 only (README, Performance), and Java 17 uses the
 * CPU's SHA instructions only from C2-compiled code: the JDK's own SHA-256 then hashes about 100 MB/s, a tenth of what
 * the NSS library does. So a large file is hashed by NSS, through the JDK's SunPKCS11 provider and the configuration
 * the JDK ships for it ({@code conf/security/nss.cfg}: Debian's and Red Hat's JDKs, which depend on libnss3), once
 * it answers the known digest of "abc"; anywhere else, and for small files (a call into NSS costs about what the JDK
 * takes for a few KiB, and loading it about 0.1 s of CPU), by the JDK. Once a large file has loaded NSS, it also
 * hashes the medium ones, such as the dump id's own listing.
 */
final class Sha256 {
    private Sha256() {}

    /** Files from this size are hashed by NSS when it is there: below it, loading NSS costs more than it saves. */
    static final long NATIVE_FROM_BYTES = 16L << 20;

    private static final byte[] ABC = HexFormat.of().parseHex("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");

    /** Once NSS is loaded, it hashes from this size on: a call into it costs what the JDK takes for a few KiB. */
    static final long LOADED_NATIVE_FROM_BYTES = 256L << 10;

    private static volatile boolean loaded;

    /** A digest for a file of this many bytes. */
    static MessageDigest forSize(long bytes) {
        if (bytes >= NATIVE_FROM_BYTES || bytes >= LOADED_NATIVE_FROM_BYTES && loaded) {
            Provider nss = Nss.PROVIDER;
            if (nss != null) {
                try {
                    return MessageDigest.getInstance("SHA-256", nss);
                } catch (GeneralSecurityException | RuntimeException e) {
                    // the JDK's below
                }
            }
        }
        return jdk();
    }

    /** The JDK's own SHA-256. */
    static MessageDigest jdk() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Whether large files are hashed by NSS in this JVM. */
    static boolean nativeAvailable() {
        return Nss.PROVIDER != null;
    }

    /** Loaded on first use only: a dump without large files never pays for it. */
    private static final class Nss {
        static final Provider PROVIDER = load();

        private static Provider load() {
            try {
                Path cfg = Path.of(System.getProperty("java.home"), "conf", "security", "nss.cfg");
                Provider base = Security.getProvider("SunPKCS11");
                if (base == null || !Files.isRegularFile(cfg)) return null;
                Provider p = base.configure(cfg.toString());
                MessageDigest md = MessageDigest.getInstance("SHA-256", p);
                if (!MessageDigest.isEqual(md.digest("abc".getBytes(StandardCharsets.US_ASCII)), ABC)) return null;
                loaded = true;
                return p;
            } catch (GeneralSecurityException | RuntimeException | LinkageError e) {
                return null; // no NSS library, or a configuration this JDK cannot use
            }
        }
    }
}
