// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.perf;

import java.io.PrintStream;
import java.util.function.Supplier;
import org.slf4j.Marker;
import org.slf4j.event.Level;
import org.slf4j.helpers.AbstractLogger;
import org.slf4j.helpers.MessageFormatter;

/**
 * The library's warnings and errors as rxperf's own messages: one line {@code rxperf: <message>} on stderr, e.g.
 * the transport's notice that the kernel capped an explicit {@code -u} (docs/rxperf.md "Output"); nothing below
 * warnings. A throwable adds its one-line description in parentheses, never a stack trace.
 */
public final class OneLineLogger extends AbstractLogger {
    private static final long serialVersionUID = 1L;
    /** Where lines go, read at each message so that a replaced {@code System.err} is followed. */
    private final transient Supplier<PrintStream> out;

    /**
     * @param name the logger's name (not printed)
     * @param out where lines go
     */
    public OneLineLogger(String name, Supplier<PrintStream> out) {
        this.name = name;
        this.out = out;
    }

    @Override
    protected String getFullyQualifiedCallerName() {
        return null;
    }

    @Override
    protected void handleNormalizedLoggingCall(Level level, Marker marker, String messagePattern, Object[] arguments,
            Throwable throwable) {
        String text = MessageFormatter.basicArrayFormat(messagePattern, arguments);
        if (throwable != null) {
            text += " (" + throwable + ")";
        }
        PrintStream stream = out.get();
        stream.println("rxperf: " + FailureMessages.oneLine(text));
        stream.flush();
    }

    @Override
    public boolean isTraceEnabled() {
        return false;
    }

    @Override
    public boolean isTraceEnabled(Marker marker) {
        return false;
    }

    @Override
    public boolean isDebugEnabled() {
        return false;
    }

    @Override
    public boolean isDebugEnabled(Marker marker) {
        return false;
    }

    @Override
    public boolean isInfoEnabled() {
        return false;
    }

    @Override
    public boolean isInfoEnabled(Marker marker) {
        return false;
    }

    @Override
    public boolean isWarnEnabled() {
        return true;
    }

    @Override
    public boolean isWarnEnabled(Marker marker) {
        return true;
    }

    @Override
    public boolean isErrorEnabled() {
        return true;
    }

    @Override
    public boolean isErrorEnabled(Marker marker) {
        return true;
    }
}
