// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.gen.xg;

/**
 * Input rx-gen cannot turn into Java: a syntax error ({@code expected X, found Y}), an unknown name, or a
 * construct rx-gen does not support (named, never skipped silently). The message starts with
 * {@code file:line:column: }.
 */
public final class XgException extends Exception {
    private static final long serialVersionUID = 1L;

    /** Where the problem is. */
    private final transient Pos pos;

    /**
     * @param pos where the problem is
     * @param detail what is wrong, e.g. {@code expected ';', found 'int'}
     */
    public XgException(Pos pos, String detail) {
        super(pos + ": " + detail);
        this.pos = pos;
    }

    /** @return where the problem is */
    public Pos pos() {
        return pos;
    }
}
