#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The rx4j Authors
# Builds a release bundle of rx4j (docs/releasing.md): in a scratch clone of the committed HEAD (this checkout and
# its version stay as they are) it sets every POM's version to VERSION and project.build.outputTimestamp to HEAD's
# commit time, commits that and tags it vVERSION (in the scratch clone only), builds and deploys into a local
# directory laid out as a Maven repository, signs every artifact with gpg when a key is given, checks the bundle
# against what Maven Central requires, and zips it for upload. Nothing is published or pushed.
#
#   scripts/release.sh VERSION [--key GPG_KEY_ID] [--skip-tests] [--out DIR]
#
#   VERSION        e.g. 0.1.0 (no -SNAPSHOT)
#   --key ID       sign each .jar and .pom with `gpg --local-user ID` (FILE.asc); without it the bundle is unsigned
#                  and Maven Central would refuse it
#   --skip-tests   build without running the tests (to try the procedure; a real release runs them)
#   --out DIR      where the bundle goes (default target/release/VERSION in this checkout; replaced if present)
#   RX4J_MVN_ARGS  extra Maven arguments, e.g. "-o" (offline)
#
# Output: DIR/repository/org/rx4j/... (the artifacts with .md5, .sha1 and, when signed, .asc files),
# DIR/rx4j-VERSION-bundle.zip (the same tree, the upload format of the Central Portal), DIR/build.log, and
# DIR/clone, the scratch clone with the release commit and tag.
set -euo pipefail
shopt -s nullglob
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

usage() { echo "usage: scripts/release.sh VERSION [--key GPG_KEY_ID] [--skip-tests] [--out DIR]" >&2; exit 2; }
(( $# >= 1 )) || usage
version=$1
shift
key='' skip_tests=0 out=''
while (( $# > 0 )); do
  case "$1" in
    --key) (( $# >= 2 )) || usage; key=$2; shift 2 ;;
    --skip-tests) skip_tests=1; shift ;;
    --out) (( $# >= 2 )) || usage; out=$2; shift 2 ;;
    *) usage ;;
  esac
done
if [[ ! "$version" =~ ^[0-9]+\.[0-9]+\.[0-9]+([.-][0-9A-Za-z.-]+)?$ ]] || [[ "$version" == *SNAPSHOT* ]]; then
  echo "release: VERSION must look like 1.2.3 (optionally -rc1), never a SNAPSHOT: $version" >&2
  exit 2
fi
out=${out:-$root/target/release/$version}
read -r -a mvn_args <<< "${RX4J_MVN_ARGS:-}"

commit=$(git -C "$root" rev-parse HEAD)
if [[ -n "$(git -C "$root" status --porcelain --untracked-files=no)" ]]; then
  echo "release: uncommitted changes are not released (the bundle is built from HEAD, $commit)" >&2
fi
rm -rf "$out"
mkdir -p "$out"
out=$(cd "$out" && pwd)
clone=$out/clone
git clone -q --no-checkout "$root" "$clone"
git -C "$clone" checkout -q -b "release-$version" "$commit"
cd "$clone"

# The version: every POM names the project's version once (the root's own, each module's parent).
current=$(sed -n 's|^  <version>\(.*\)</version>$|\1|p' pom.xml | head -n 1)
[[ -n "$current" ]] || { echo "release: no project version in pom.xml" >&2; exit 1; }
poms=$(git ls-files 'pom.xml' '*/pom.xml')
for p in $poms; do
  sed -i "s|<version>${current//./\\.}</version>|<version>$version</version>|" "$p"
done
if grep -l -F "<version>$current</version>" $poms; then
  echo "release: the files above still name $current" >&2
  exit 1
fi
# Jar entries get the release commit's time (reproducible: the same commit gives the same bytes).
stamp=$(TZ=UTC git log -1 --format=%cd --date=format-local:%Y-%m-%dT%H:%M:%SZ "$commit")
sed -i "s|<project.build.outputTimestamp>[^<]*</project.build.outputTimestamp>|<project.build.outputTimestamp>$stamp</project.build.outputTimestamp>|" pom.xml
grep -q "<project.build.outputTimestamp>$stamp<" pom.xml || { echo "release: outputTimestamp not set" >&2; exit 1; }
git -c user.name="rx4j release" -c user.email="release@rx4j.invalid" commit -q -am "Release $version"
git -c user.name="rx4j release" -c user.email="release@rx4j.invalid" tag -a "v$version" -m "rx4j $version"
echo "release: $current -> $version at $(git rev-parse --short HEAD) (from $commit), outputTimestamp $stamp"

# Build and deploy into the bundle directory (rx-bench and rx-gen-example set maven.deploy.skip).
tests=()
(( skip_tests )) && tests=(-DskipTests)
repo=$out/repository
echo "release: building (log: $out/build.log)"
if ! mvn -B ${tests[@]+"${tests[@]}"} ${mvn_args[@]+"${mvn_args[@]}"} \
    -DaltDeploymentRepository="release-bundle::file://$repo" deploy > "$out/build.log" 2>&1; then
  tail -40 "$out/build.log" >&2
  echo "release: the build failed" >&2
  exit 1
fi
# Central computes the repository metadata itself.
find "$repo" -name 'maven-metadata*' -delete

if [[ -n "$key" ]]; then
  find "$repo" -type f \( -name '*.jar' -o -name '*.pom' \) -print0 | sort -z |
    while IFS= read -r -d '' f; do
      gpg --batch --yes --local-user "$key" --armor --detach-sign --output "$f.asc" "$f"
    done
fi

# What Maven Central checks (docs/releasing.md "What Maven Central checks").
problems=0
problem() { echo "release: $*" >&2; problems=$((problems + 1)); }
base=$repo/org/rx4j
for pom in "$base"/*/"$version"/*.pom; do
  dir=$(dirname "$pom")
  artifact=$(basename "$(dirname "$dir")")
  for tag in name description; do
    grep -q "<$tag>" "$pom" || problem "$artifact: no <$tag> in its POM"
  done
  if [[ "$artifact" == rx4j-parent ]]; then
    for tag in url licenses developers scm; do
      grep -q "<$tag[ >]" "$pom" || problem "$artifact: no <$tag> in the parent POM"
    done
  else
    grep -q "<artifactId>rx4j-parent</artifactId>" "$pom" || problem "$artifact: does not inherit rx4j-parent"
    [[ -f "$dir/$artifact-$version.jar" ]] || problem "$artifact: no jar"
    [[ -f "$dir/$artifact-$version-sources.jar" ]] || problem "$artifact: no sources jar"
    [[ -f "$dir/$artifact-$version-javadoc.jar" ]] || problem "$artifact: no javadoc jar"
  fi
  for f in "$dir"/*.jar "$dir"/*.pom; do
    [[ -f "$f.sha1" && -f "$f.md5" ]] || problem "$(basename "$f"): no .sha1/.md5"
    if [[ -n "$key" ]]; then
      gpg --batch --verify "$f.asc" "$f" 2> /dev/null || problem "$(basename "$f"): no valid signature"
    fi
  done
done
[[ -f "$base/rx4j-parent/$version/rx4j-parent-$version.pom" ]] || problem "no parent POM in the bundle"
if (( problems > 0 )); then
  echo "release: $problems problem(s); the bundle in $out is not fit for Maven Central" >&2
  exit 1
fi

(cd "$repo" && zip -q -r -X "$out/rx4j-$version-bundle.zip" org)
artifacts=$(find "$base" -mindepth 1 -maxdepth 1 -type d | wc -l)
files=$(find "$repo" -type f | wc -l)
echo "release: $artifacts artifacts, $files files in $repo$([[ -n "$key" ]] && echo ", signed by $key" || echo ", NOT signed")"
echo "release: bundle $out/rx4j-$version-bundle.zip"
