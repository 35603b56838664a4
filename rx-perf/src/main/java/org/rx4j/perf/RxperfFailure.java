package org.rx4j.perf;

/**
 * A run-time failure with a message meant for the user (rxperf prints {@code rxperf: <message>} and exits 1),
 * e.g. no transport available, unknown host.
 */
public final class RxperfFailure extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /**
     * @param message one line, without the {@code rxperf: } prefix
     */
    public RxperfFailure(String message) {
        super(message);
    }

    /**
     * @param message one line, without the {@code rxperf: } prefix
     * @param cause the underlying exception (shown with {@code --debug})
     */
    public RxperfFailure(String message, Throwable cause) {
        super(message, cause);
    }
}
