#!/usr/bin/env bash
# Builds the Debian packages neonsync (the client), neonsync-highlight (its
# code highlighting plug-in, KSyntaxHighlighting and Qt behind it),
# neonsync-bench (the program neonsync bench runs: the load generator and
# the benchmarks) and neonsyncd (the server) from this tree: one
# static-Swift-runtime release build, the plug-in as a plain shared object,
# stripped binaries, the man
# pages and shell completions each binary generates from the tables its
# --help prints, the samples as the client's examples, Depends computed by
# dpkg-shlibdeps, then lintian.
#
#   deploy/debian/build.sh VERSION        # e.g. 0.3.0 -> dist/0.3.0/neonsync_0.3.0_amd64.deb, dist/0.3.0/neonsync-highlight_0.3.0_amd64.deb, dist/0.3.0/neonsync-bench_0.3.0_amd64.deb, dist/0.3.0/neonsyncd_0.3.0_amd64.deb
#
# The build runs on a copy of the tracked files (uncommitted edits included)
# under .build/debian/, where the version and commit are stamped into
# BuildStamp.swift; the copy and its build are kept, so a second run only
# rebuilds what changed. The packages go to dist/VERSION/, a directory of
# this version's own (so ./dist/0.3.0/*.deb names this build's and no
# other's), which git ignores, as the whole of dist/: a package build leaves
# the tree as clean as it found it. DIST=DIR writes them elsewhere; LINTIAN=no
# skips lintian (its findings go to DIST/lintian.txt otherwise). The
# Maintainer field is "$DEBFULLNAME <$DEBEMAIL>", as Debian's tools take it,
# or the last commit's author.
# docs/PACKAGING.md explains every step.
set -euo pipefail

say() { printf 'build.sh: %s\n' "$*" >&2; }
die() { say "$*"; exit 2; }

[ $# -eq 1 ] || die "give the version, e.g. deploy/debian/build.sh 0.3.0 (a Debian version: digits first, then letters, digits, . + ~)"
VERSION=$1
[[ $VERSION =~ ^[0-9][A-Za-z0-9.+~]*$ ]] || die "\"$VERSION\" is not a Debian version; use digits first, then letters, digits, . + or ~ (e.g. 0.3.0 or 0.3.0~rc1)"

HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
DIST=${DIST:-$ROOT/dist/$VERSION}
WORK=$ROOT/.build/debian
SRC=$WORK/src
ARCH=$(dpkg --print-architecture)
MAINTAINER="${DEBFULLNAME:-$(git -C "$ROOT" log -1 --format=%an)} <${DEBEMAIL:-$(git -C "$ROOT" log -1 --format=%ae)}>"
[[ $MAINTAINER =~ ^[^\<]+\ \<[^@\>]+@[^\>]+\>$ ]] || die "no maintainer in \"$MAINTAINER\": set DEBFULLNAME and DEBEMAIL"
for tool in git rsync dpkg-deb dpkg-shlibdeps dpkg-buildflags pkg-config strip gzip swift; do
  command -v "$tool" >/dev/null || die "$tool is missing; run deploy/setup.sh"
done

# 1. The tree to build: the tracked files as they are now, and the stamp.
mkdir -p "$SRC" "$DIST"
(cd "$ROOT" && git ls-files -z --cached --others --exclude-standard) | LC_ALL=C sort -z > "$WORK/files"
rsync -a --from0 --files-from="$WORK/files" "$ROOT/" "$SRC/"
# rsync --files-from copies what the list names and deletes nothing: a file
# the tree no longer has (moved or removed since the last build) would stay
# in the copy and be built with it, so what the list does not name goes.
(cd "$SRC" && find . -type f -printf '%P\0' | LC_ALL=C sort -z | LC_ALL=C comm -z -23 - "$WORK/files" | xargs -0 -r rm -f --)
find "$SRC" -mindepth 1 -depth -type d -empty -delete
COMMIT=$(git -C "$ROOT" rev-parse --short=12 HEAD)
git -C "$ROOT" diff --quiet HEAD -- || COMMIT="$COMMIT-dirty"
STAMP=$SRC/Sources/NeonCore/CommandLine/BuildStamp.swift
cat > "$WORK/BuildStamp.swift" <<SWIFT
/// What a build was made from, as deploy/debian/build.sh stamped it.
public enum BuildStamp {
    public static let version = "$VERSION"
    public static let commit = "$COMMIT"
    public static let date = "$(git -C "$ROOT" log -1 --format=%cs)"
}
SWIFT
cmp -s "$WORK/BuildStamp.swift" "$WORK/BuildStamp.last" || cp "$WORK/BuildStamp.swift" "$WORK/BuildStamp.last"
# Kept with its old time when unchanged, so an unchanged tree builds nothing.
cp -p "$WORK/BuildStamp.last" "$STAMP"

# 2. A release build of the three shipped executables, the Swift runtime
# linked in (only them: the tests' support target needs the Testing module,
# which has no static build).
say "building $VERSION ($COMMIT) with --static-swift-stdlib"
for product in neonsyncd neonsync neonsync-bench; do
  swift build -c release --static-swift-stdlib --product "$product" --package-path "$SRC" --scratch-path "$WORK/build" >&2
done
BIN=$WORK/build/release

# The highlighting plug-in, libNeonSyntax.so, from the C++ target's sources
# with the compiler swift build uses (the toolchain's clang++) and Debian's
# build flags (dpkg-buildflags: hardening, relro). Not SwiftPM's NeonSyntax
# product: SwiftPM links every library it makes against libswiftCore.so,
# with the toolchain's directory as its RUNPATH, which a user's machine
# does not have; the plug-in is C++ alone and needs neither.
CXX=$(dirname "$(readlink -f "$(command -v swift)")")/clang++
PLUGIN_SRC=$SRC/Sources/CSyntaxHighlighting
PLUGIN=$WORK/plugin/libNeonSyntax.so
mkdir -p "$WORK/plugin"
if [ ! "$PLUGIN" -nt "$PLUGIN_SRC/NeonSyntax.cpp" ] || [ ! "$PLUGIN" -nt "$PLUGIN_SRC/include/NeonSyntax.h" ] \
   || [ ! "$PLUGIN" -nt "$HERE/build.sh" ]; then
  say "building the highlighting plug-in with $CXX"
  # shellcheck disable=SC2046 # the flags are words
  (cd "$SRC" && "$CXX" $(dpkg-buildflags --get CPPFLAGS) $(dpkg-buildflags --get CXXFLAGS) -std=c++17 -fPIC -shared \
    -I"$PLUGIN_SRC/include" $(pkg-config --cflags Qt5Gui) "$PLUGIN_SRC/NeonSyntax.cpp" \
    $(dpkg-buildflags --get LDFLAGS) -Wl,-z,now -Wl,--as-needed -lKF5SyntaxHighlighting -lQt5Core \
    -o "$PLUGIN.new") && mv "$PLUGIN.new" "$PLUGIN"
fi

# 3. The four trees, as they land on a user's machine.
STAGE=$WORK/stage
rm -rf "$STAGE"
stage_doc() { # stage_doc PACKAGE: copyright and changelog.gz
  local package=$1 root=$STAGE/$1
  install -d -m 755 "$root/DEBIAN" "$root/usr/share/doc/$package"
  install -m 644 "$HERE/copyright" "$root/usr/share/doc/$package/copyright"
  sed "s/@VERSION@/$VERSION/; s/@PACKAGE@/$package/; s|@MAINTAINER@|$MAINTAINER|; s/@DATE@/$(date -R -d "@$(git -C "$ROOT" log -1 --format=%ct)")/" \
    "$HERE/changelog.in" | gzip -9n > "$root/usr/share/doc/$package/changelog.gz"
  chmod 644 "$root"/usr/share/doc/"$package"/*
}
stage() { # stage PACKAGE BINARY MANSECTION
  local package=$1 binary=$2 section=$3 root=$STAGE/$1
  stage_doc "$package"
  install -d -m 755 "$root/usr/bin" "$root/usr/share/man/man$section" "$root/usr/share/bash-completion/completions" \
    "$root/usr/share/zsh/vendor-completions" "$root/usr/share/fish/vendor_completions.d"
  install -m 755 -s "$BIN/$binary" "$root/usr/bin/$binary"
  "$BIN/$binary" generate man | gzip -9n > "$root/usr/share/man/man$section/$binary.$section.gz"
  "$BIN/$binary" generate bash > "$root/usr/share/bash-completion/completions/$binary"
  "$BIN/$binary" generate zsh > "$root/usr/share/zsh/vendor-completions/_$binary"
  "$BIN/$binary" generate fish > "$root/usr/share/fish/vendor_completions.d/$binary.fish"
  chmod 644 "$root"/usr/share/man/*/* "$root"/usr/share/*/*completions*/*
}
stage neonsync neonsync 1
stage neonsyncd neonsyncd 8
# The samples as the client's examples (named in neonsync(1)), uncompressed
# so that neonsync reads them where they are and the deck finds its picture.
install -d -m 755 "$STAGE/neonsync/usr/share/doc/neonsync/examples"
install -m 644 "$ROOT"/samples/* "$STAGE/neonsync/usr/share/doc/neonsync/examples/"
# The plug-in in the client's private library directory, where neonsync
# looks for it (../lib/neonsync beside /usr/bin), stripped as dh_strip
# strips shared objects.
stage_doc neonsync-highlight
H=$STAGE/neonsync-highlight
install -d -m 755 "$H/usr/lib/neonsync"
install -m 644 "$PLUGIN" "$H/usr/lib/neonsync/libNeonSyntax.so"
strip --remove-section=.comment --remove-section=.note --strip-unneeded "$H/usr/lib/neonsync/libNeonSyntax.so"
# neonsync-bench where neonsync looks for it (../libexec/neonsync beside
# /usr/bin): a program of neonsync's, run as neonsync bench, not a command
# of its own on the PATH.
stage_doc neonsync-bench
B=$STAGE/neonsync-bench
install -d -m 755 "$B/usr/libexec/neonsync"
install -m 755 -s "$BIN/neonsync-bench" "$B/usr/libexec/neonsync/neonsync-bench"
D=$STAGE/neonsyncd
install -d -m 755 "$D/lib/systemd/system" "$D/etc/logrotate.d"
for unit in neonsyncd.service neonsyncd@.service; do
  sed 's|/usr/local/bin/neonsyncd|/usr/bin/neonsyncd|g; s|^#   install -m 755 .build/release/neonsyncd /usr/local/bin/$|#   (installed by the neonsyncd package: apt install ./neonsyncd_VERSION_amd64.deb)|' \
    "$ROOT/deploy/systemd/$unit" > "$D/lib/systemd/system/$unit"
  chmod 644 "$D/lib/systemd/system/$unit"
done
install -m 644 "$ROOT/deploy/logrotate/neonsyncd" "$D/etc/logrotate.d/neonsyncd"
for script in postinst prerm postrm; do install -m 755 "$HERE/neonsyncd/$script" "$D/DEBIAN/$script"; done
install -m 644 "$HERE/neonsyncd/conffiles" "$D/DEBIAN/conffiles"

# 4. Control files: Depends from dpkg-shlibdeps, sizes and sums from the trees.
declare -A OBJECT=([neonsync]=usr/bin/neonsync [neonsyncd]=usr/bin/neonsyncd [neonsync-highlight]=usr/lib/neonsync/libNeonSyntax.so
                   [neonsync-bench]=usr/libexec/neonsync/neonsync-bench)
for package in neonsync neonsync-highlight neonsync-bench neonsyncd; do
  root=$STAGE/$package
  shlibs=$(cd "$WORK" && mkdir -p debian && printf 'Source: neonsync\n\nPackage: %s\nArchitecture: any\n' "$package" > debian/control \
    && dpkg-shlibdeps -O -e"$root/${OBJECT[$package]}" 2>/dev/null | sed -n 's/^shlibs:Depends=//p')
  [ -n "$shlibs" ] || die "dpkg-shlibdeps found no libraries for $package"
  size=$(du -s -k --apparent-size --exclude=DEBIAN "$root" | cut -f1)
  sed "s/@VERSION@/$VERSION/; s/@ARCH@/$ARCH/; s/@SIZE@/$size/; s/@DEPENDS@/$shlibs/; s|@MAINTAINER@|$MAINTAINER|" \
    "$HERE/$package/control.in" > "$root/DEBIAN/control"
  (cd "$root" && find . -path ./DEBIAN -prune -o -path ./etc -prune -o -type f -printf '%P\0' | LC_ALL=C sort -z \
    | xargs -0 md5sum) > "$root/DEBIAN/md5sums"
  chmod 644 "$root/DEBIAN/control" "$root/DEBIAN/md5sums"
  dpkg-deb --root-owner-group -Zxz --build "$root" "$DIST/${package}_${VERSION}_${ARCH}.deb" >/dev/null
  say "$DIST/${package}_${VERSION}_${ARCH}.deb: Depends: $shlibs"
done

# 5. lintian: no errors; the warnings it leaves are listed in docs/PACKAGING.md.
if [ "${LINTIAN:-yes}" != no ] && command -v lintian >/dev/null; then
  lintian --tag-display-limit 0 "$DIST/neonsync_${VERSION}_${ARCH}.deb" "$DIST/neonsync-highlight_${VERSION}_${ARCH}.deb" \
    "$DIST/neonsync-bench_${VERSION}_${ARCH}.deb" "$DIST/neonsyncd_${VERSION}_${ARCH}.deb" \
    > "$DIST/lintian.txt" 2>&1 || true
  if grep -q '^E: ' "$DIST/lintian.txt"; then
    cat "$DIST/lintian.txt" >&2
    die "lintian reports errors (above)"
  fi
  say "lintian: $(grep -c '^W: ' "$DIST/lintian.txt" || true) warnings, no errors ($DIST/lintian.txt)"
fi
