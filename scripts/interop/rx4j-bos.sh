# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The rx4j Authors
# shellcheck shell=bash
# scripts/interop.sh, section bos: rx4j's client API and generated BOZO stubs against the real bosserver.
# Sourced by scripts/interop.sh, not run by itself; uses common.sh and section-bos.sh.

# rx4j's client API against the real bosserver (which must be running): the JUnit class
# rx-core/src/test/java/org/rx4j/interop/BosInteropTest.java, through Maven. It compares rx4j's
# GetCellName/GetCellHost answers with what real `bos listhosts` printed just before, adds a host
# with AddCellHost, and checks that opcodes bosserver lacks abort with RXGEN_OPCODE (-455); then
# real `bos listhosts` must show the host rx4j added.
RX4J_BOS_ADD_HOST=10.9.8.6
rx4j_bos_test() {
    local report=$ROOT/rx-core/target/surefire-reports/org.rx4j.interop.BosInteropTest.txt status=0
    bos listhosts -server 127.0.0.1 -noauth > "$WORK/bos-listhosts.txt" 2>&1 || { cat "$WORK/bos-listhosts.txt"; return 1; }
    echo "bos listhosts printed:"; sed 's/^/  /' "$WORK/bos-listhosts.txt"
    rm -f "$report"
    (cd "$ROOT" && mvn -q -B -ntp -pl rx-core test -Dtest=BosInteropTest -Dsurefire.failIfNoSpecifiedTests=false \
        -Drx4j.bos.server=127.0.0.1:7007 -Drx4j.bos.listhosts="$WORK/bos-listhosts.txt" \
        -Drx4j.bos.addHost="$RX4J_BOS_ADD_HOST") || status=$?
    [[ -f $report ]] && sed -n 's/^\(Tests run: .*\) -- in .*/\1/p' "$report"
    [[ $status -eq 0 ]] || { echo "mvn exit status $status"; return 1; }
    # A skipped class (no -D reached the test JVM) runs 0 tests: that is a failure here.
    grep -Eq '^Tests run: 6, Failures: 0, Errors: 0, Skipped: 0' "$report" \
        || { echo "expected 6 tests run and none skipped"; return 1; }
}

# The same bosserver through the stubs rx-gen generates from rx4j's own bozo.xg (rx-afs BozoInteropTest).
rx4j_bozo_generated_test() {
    local report=$ROOT/rx-afs/target/surefire-reports/org.rx4j.afs.BozoInteropTest.txt status=0
    rm -f "$report"
    (cd "$ROOT" && mvn -q -B -ntp -pl rx-afs -am test -Dtest=BozoInteropTest -Dsurefire.failIfNoSpecifiedTests=false \
        -Drx4j.bos.server=127.0.0.1:7007 -Drx4j.bos.cell="$CELL") || status=$?
    [[ -f $report ]] && sed -n 's/^\(Tests run: .*\) -- in .*/\1/p' "$report"
    [[ $status -eq 0 ]] || { echo "mvn exit status $status"; return 1; }
    grep -Eq '^Tests run: 2, Failures: 0, Errors: 0, Skipped: 0' "$report" \
        || { echo "expected 2 tests run and none skipped"; return 1; }
}

run_rx4j_bos() {
    rx4j_available "rx4j: BosInteropTest against bosserver" || return 0
    check "rx4j: BosInteropTest (GetCellName/GetCellHost = bos listhosts, AddCellHost, opcode -455)" 240 rx4j_bos_test
    check "rx4j: generated BOZO stubs (rx-gen, bozo.xg): GetCellName, GetCellHost to BZDOM, GetStatus = BZNOENT" 240 \
        rx4j_bozo_generated_test
    check "bos listhosts shows the host rx4j added" 60 bos_listhosts_expect \
        "Cell name is $CELL" "    Host 1 is localhost" "    Host 2 is 10.9.8.7" "    Host 3 is $RX4J_BOS_ADD_HOST"
}
