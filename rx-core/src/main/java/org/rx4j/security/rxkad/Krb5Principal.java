// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.security.rxkad;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * A Kerberos 5 principal name as credential caches and keytabs store it: a realm and one or more components
 * (RFC 4120 section 6.2). Printed as {@code comp1/comp2@REALM}.
 *
 * @param realm the realm
 * @param components the name components (copied), one or more
 */
public record Krb5Principal(String realm, List<String> components) {
    /**
     * @throws NullPointerException if an argument is null
     */
    public Krb5Principal {
        if (realm == null) {
            throw new NullPointerException("realm");
        }
        components = List.copyOf(components);
    }

    /**
     * @param name a principal as {@code comp1/comp2@REALM}; without {@code @} the realm is empty
     * @return the principal
     */
    public static Krb5Principal parse(String name) {
        int at = name.lastIndexOf('@');
        String realm = at < 0 ? "" : name.substring(at + 1);
        String path = at < 0 ? name : name.substring(0, at);
        return new Krb5Principal(realm, List.of(path.split("/", -1)));
    }

    /**
     * Reads a DER PrincipalName (RFC 4120 section 5.2.2: name-type, then the name-string components).
     *
     * @param r a reader positioned at the PrincipalName's SEQUENCE
     * @return its components; the name type is not kept
     * @throws IOException if it is malformed
     */
    static List<String> decodeName(Der.Reader r) throws IOException {
        Der.Reader name = r.open(Der.SEQUENCE);
        name.open(Der.context(0));
        Der.Reader parts = name.open(Der.context(1)).open(Der.SEQUENCE);
        List<String> out = new ArrayList<>();
        while (parts.hasMore()) {
            out.add(parts.string());
        }
        return out;
    }

    /** @return {@code comp1/comp2@REALM} */
    @Override
    public String toString() {
        return String.join("/", components) + "@" + realm;
    }
}
