// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.testing;

import java.util.ArrayList;
import java.util.List;
import org.slf4j.Marker;
import org.slf4j.event.Level;
import org.slf4j.helpers.LegacyAbstractLogger;
import org.slf4j.helpers.MessageFormatter;

/**
 * An SLF4J logger with every level on that keeps the lines it is given, formatted, for tests of log output (the
 * test binding, slf4j-simple, logs INFO and up to stderr only). Thread-safe: the event loop and application threads
 * may log at once.
 */
public final class CaptureLogger extends LegacyAbstractLogger {
    private static final long serialVersionUID = 1L;

    /** One captured line: its level and formatted text (arguments filled in, no throwable). */
    public record Line(Level level, String text) {
    }

    private final Level only;
    private final transient List<Line> lines = new ArrayList<>();

    /**
     * @param only the one level the code under test may log at (a line at another one fails with an
     *     {@link AssertionError} where it is logged), or null for any level
     */
    public CaptureLogger(Level only) {
        this.name = "capture";
        this.only = only;
    }

    @Override
    public boolean isTraceEnabled() {
        return true;
    }

    @Override
    public boolean isDebugEnabled() {
        return true;
    }

    @Override
    public boolean isInfoEnabled() {
        return true;
    }

    @Override
    public boolean isWarnEnabled() {
        return true;
    }

    @Override
    public boolean isErrorEnabled() {
        return true;
    }

    @Override
    protected String getFullyQualifiedCallerName() {
        return null;
    }

    @Override
    protected void handleNormalizedLoggingCall(Level level, Marker marker, String pattern, Object[] args,
            Throwable t) {
        if (only != null && level != only) {
            throw new AssertionError("logged at " + level + ", expected only " + only + ": " + pattern);
        }
        Line line = new Line(level, MessageFormatter.basicArrayFormat(pattern, args));
        synchronized (lines) {
            lines.add(line);
        }
    }

    /** @return the text of every line so far, in order */
    public List<String> lines() {
        synchronized (lines) {
            return lines.stream().map(Line::text).toList();
        }
    }

    /**
     * @param level a level
     * @return the text of every line logged at {@code level} so far, in order
     */
    public List<String> lines(Level level) {
        synchronized (lines) {
            return lines.stream().filter(l -> l.level() == level).map(Line::text).toList();
        }
    }

    /**
     * @param fragments texts the line contains
     * @return the one line containing every fragment
     * @throws AssertionError unless exactly one line does
     */
    public String lineWith(String... fragments) {
        List<String> found = new ArrayList<>();
        for (String line : lines()) {
            boolean all = true;
            for (String f : fragments) {
                all &= line.contains(f);
            }
            if (all) {
                found.add(line);
            }
        }
        if (found.size() != 1) {
            throw new AssertionError("one line with " + List.of(fragments) + " expected, found " + found.size()
                    + " in " + lines());
        }
        return found.get(0);
    }
}
