package org.rx4j.perf;

/** Placeholder entry point; replaced by the picocli rxperf command. */
public final class RxPerf {
    private RxPerf() {
    }

    /** @param args command-line arguments */
    public static void main(String[] args) {
        System.out.println("rxperf: not built yet");
    }
}
