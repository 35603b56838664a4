#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The rx4j Authors
# Prints the JAVA_HOME of the newest JDK under /usr/lib/jvm (by its `java -version` feature number) that is newer
# than the default `java`, or nothing when the default is already the newest. Used by test.sh to run the Maven
# suite a second time on that JDK, and by scripts/rxperf to pick the faster runtime.
set -euo pipefail
feature() { "$1" -version 2>&1 | sed -n '1s/.*version "\([0-9]*\).*/\1/p'; }
default_feature="$(feature java)"
best=""; best_feature="$default_feature"
for home in /usr/lib/jvm/*/; do
  home="${home%/}"
  [[ -x "$home/bin/java" && -x "$home/bin/javac" && ! -L "$home" ]] || continue
  f="$(feature "$home/bin/java")"
  [[ -n "$f" ]] || continue
  if (( f > best_feature )); then best="$home"; best_feature="$f"; fi
done
[[ -n "$best" ]] && echo "$best"
exit 0
