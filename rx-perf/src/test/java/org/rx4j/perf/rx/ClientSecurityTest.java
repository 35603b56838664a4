// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.perf.rx;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rx4j.perf.transport.PerfSecurity;
import org.rx4j.security.RxNullSecurityClass;
import org.rx4j.security.rxkad.RxkadClientSecurity;
import org.rx4j.security.rxkad.RxkadLevel;
import org.rx4j.security.rxkad.ServerKey;

/** rxperf's client credentials come from rx-core's LocalAuth: a KeyFile, or a directory with a KeyFileExt. */
class ClientSecurityTest {
    @TempDir
    Path dir;

    /** A KeyFileExt as asetkey writes it, holding one rxkad_krb5 AES-128 key (enctype 17) of kvno 5. */
    private void keyFileExt() throws IOException {
        ByteBuffer b = ByteBuffer.allocate(4 + 16 + 4 + 16);
        b.putInt(1).putInt(16).putInt(ServerKey.RXKAD_KRB5).putInt(5).putInt(17).putInt(16);
        for (int i = 0; i < 16; i++) {
            b.put((byte) (i * 7 + 1));
        }
        Files.write(dir.resolve("KeyFileExt"), b.array());
    }

    @Test
    void aDirectoryWithOnlyAKeyFileExtGivesAClientAtTheLevel() throws IOException {
        keyFileExt();
        RxkadClientSecurity c = (RxkadClientSecurity) RxPerfTransportFactory.clientSecurity(
                new PerfSecurity("auth", dir));
        assertEquals(RxkadLevel.AUTH, c.level());
    }

    @Test
    void aKeyFileWithoutDesKeysIsRefused() throws IOException {
        Path empty = dir.resolve("KeyFile");
        Files.write(empty, new byte[] {0, 0, 0, 0});
        IOException e = assertThrows(IOException.class,
                () -> RxPerfTransportFactory.clientSecurity(new PerfSecurity("crypt", empty)));
        assertTrue(e.getMessage().contains("no rxkad (DES) or rxkad_krb5 key"), e.getMessage());
    }

    @Test
    void noneIsRxnull() throws IOException {
        assertSame(RxNullSecurityClass.INSTANCE, RxPerfTransportFactory.clientSecurity(PerfSecurity.NONE));
    }
}
