// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.security.rxkad;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rx4j.security.CallerIdentity;
import org.rx4j.security.SecurityIndex;

/**
 * {@link UserList} over files in a temporary directory (docs/security.md "Superusers"): the {@code -localauth}
 * identity, local and foreign names, local realms and their exclusions, the file read again when it changes, and
 * BOZO AddSUser's append.
 */
class UserListTest {
    @TempDir
    Path dir;

    private static CallerIdentity rxkad(String name, String instance, String cell) {
        return new CallerIdentity(name, instance, cell, SecurityIndex.RXKAD, RxkadLevel.CRYPT.wire(), Long.MAX_VALUE);
    }

    /** Writes a file and stamps it {@code second} seconds after 1970 (so a rewrite is seen whatever its size). */
    private void write(String file, String text, long second) throws IOException {
        Files.writeString(dir.resolve(file), text);
        Files.setLastModifiedTime(dir.resolve(file), FileTime.fromMillis(second * 1000));
    }

    @Test
    void localAuthIsASuperuserWithoutAnyFileAndRxnullNever() throws IOException {
        UserList users = new UserList(dir);
        assertTrue(users.isSuperuser(rxkad(LocalAuth.SUPERUSER, "", "")));
        assertFalse(users.isSuperuser(rxkad(LocalAuth.SUPERUSER, "", "other.org")), "afs of another cell");
        assertFalse(users.isSuperuser(rxkad(LocalAuth.SUPERUSER, "x", "")), "afs.x");
        assertFalse(users.isSuperuser(new CallerIdentity("afs", "", "", SecurityIndex.RXNULL, 0, Long.MAX_VALUE)));
        assertEquals(List.of(), users.names());
    }

    @Test
    void localNamesMatchWithoutACellAndForeignOnesOnlyWithTheirs() throws IOException {
        write("ThisCell", "example.org\n", 100);
        write("UserList", "admin\nroot.admin\nbob@other.org\ncarol.x@OTHER.ORG\n", 100);
        UserList users = new UserList(dir);
        assertEquals(List.of("admin", "root.admin", "bob@other.org", "carol.x@OTHER.ORG"), users.names());
        assertTrue(users.isSuperuser(rxkad("admin", "", "")));
        assertTrue(users.isSuperuser(rxkad("admin", "", "EXAMPLE.ORG")), "the local cell in any case");
        assertTrue(users.isSuperuser(rxkad("root", "admin", "example.org")));
        assertFalse(users.isSuperuser(rxkad("root", "", "")), "root is not root.admin");
        assertFalse(users.isSuperuser(rxkad("admin", "", "other.org")), "a foreign admin needs admin@other.org");
        assertFalse(users.isSuperuser(rxkad("bob", "", "")), "bob@other.org is not the local bob");
        assertTrue(users.isSuperuser(rxkad("bob", "", "OTHER.ORG")), "the ticket's cell in lower case");
        assertTrue(users.isSuperuser(rxkad("carol", "x", "OTHER.ORG")));
        assertFalse(users.isSuperuser(rxkad("carol", "x", "other.org")), "the listed case, or lower case only");
    }

    @Test
    void aLocalRealmCountsAsTheCellUnlessThePrincipalIsExcluded() throws IOException {
        write("ThisCell", "example.org\n", 100);
        write("UserList", "admin\nops\n", 100);
        write("krb.conf", "AD.EXAMPLE.ORG KRB.EXAMPLE.ORG\nIGNORED.ORG\n", 100);
        write("krb.excl", "ops@AD.EXAMPLE.ORG\n", 100);
        UserList users = new UserList(dir);
        assertTrue(users.isSuperuser(rxkad("admin", "", "KRB.EXAMPLE.ORG")));
        assertTrue(users.isSuperuser(rxkad("admin", "", "ad.example.org")), "realms match in any case");
        assertTrue(users.isSuperuser(rxkad("ops", "", "KRB.EXAMPLE.ORG")));
        assertFalse(users.isSuperuser(rxkad("ops", "", "AD.EXAMPLE.ORG")), "excluded from the local realm");
        assertFalse(users.isSuperuser(rxkad("admin", "", "IGNORED.ORG")), "only krb.conf's first line");
    }

    @Test
    void theFileIsReadAgainWhenItChanges() throws IOException {
        write("UserList", "admin\n", 100);
        UserList users = new UserList(dir);
        assertTrue(users.isSuperuser(rxkad("admin", "", "")));
        write("UserList", "alice\n", 200); // same size, another time
        assertFalse(users.isSuperuser(rxkad("admin", "", "")));
        assertTrue(users.isSuperuser(rxkad("alice", "", "")));
        Files.delete(dir.resolve("UserList"));
        assertFalse(users.isSuperuser(rxkad("alice", "", "")), "a removed UserList lists no one");
    }

    @Test
    void extendedLinesAreSkippedAndALineWithoutANameEndsTheList() throws IOException {
        String name65 = "a".repeat(65);
        write("UserList", "admin extra words\n 2 YWxpY2U= alice\n" + name65 + "\n\nafter-the-gap\n", 100);
        assertEquals(List.of("admin", name65.substring(0, 64)), new UserList(dir).names());
    }

    @Test
    void addAppendsANameOnceAsAddSUserDoes() throws IOException {
        UserList users = new UserList(dir);
        assertTrue(users.add("admin"));
        assertTrue(users.add("bob.admin@other.org"));
        assertFalse(users.add("admin"), "already listed");
        assertEquals("admin\nbob.admin@other.org\n", Files.readString(dir.resolve("UserList")));
        assertEquals(List.of("admin", "bob.admin@other.org"), users.names());
        assertThrows(IllegalArgumentException.class, () -> users.add("two words"));
        assertThrows(IllegalArgumentException.class, () -> users.add(""));
        assertThrows(IllegalArgumentException.class, () -> users.add("a".repeat(65)));
    }
}
