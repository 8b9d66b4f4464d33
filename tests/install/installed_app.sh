#!/usr/bin/env bash
# Issue #47: Proofdesk installs like a desktop app.
#   installed_app.sh BUILD_DIR install  `cmake --install` into a temporary prefix: the programs,
#       the menu entry, icon, AppStream metainfo and systemd examples are in place and valid, and
#       the installed `proofdesk serve` runs a submitted program with the installed sandbox.
#   installed_app.sh BUILD_DIR package  CPack's .deb: its name, fields and files.
# A third argument `headless` checks a build without the console (PROOFDESK_GUI=OFF): the
# server's files, and no menu entry, icon, metainfo or Qt Widgets dependency.
# Exit 77 (skipped) when a tool it needs is missing.
set -euo pipefail
BUILD=$(cd "$1" && pwd)
MODE=$2
FLAVOUR=${3:-gui}
cd "$(dirname "$0")/../.."
SOURCE=$(pwd)
WORK=$(mktemp -d)
SERVER_PID=""
cleanup() {
    [ -n "$SERVER_PID" ] && kill "$SERVER_PID" 2>/dev/null && wait "$SERVER_PID" 2>/dev/null
    rm -rf "$WORK"
}
trap cleanup EXIT
fail() { echo "FAIL: $*"; [ -f "$WORK/serve.err" ] && tail -20 "$WORK/serve.err"; exit 1; }
APP_ID=io.proofdesk.Proofdesk
DESKTOP_FILES="share/applications/$APP_ID.desktop share/icons/hicolor/scalable/apps/$APP_ID.svg
    share/metainfo/$APP_ID.metainfo.xml"
FILES="bin/proofdesk bin/proofdesk-sandbox share/doc/proofdesk/systemd/proofdesk-worker@.service
    share/doc/proofdesk/systemd/proofdesk-frontend.service share/doc/proofdesk/team.md"
LIBRARIES="libqt6sql6-sqlite libsecp256k1 libzip"
ABSENT=""
if [ "$FLAVOUR" = headless ]; then
    ABSENT=$DESKTOP_FILES
else
    FILES="$FILES $DESKTOP_FILES"
    LIBRARIES="$LIBRARIES libqt6widgets6"
fi

if [ "$MODE" = package ]; then
    command -v dpkg-deb >/dev/null || { echo "dpkg-deb is not installed"; exit 77; }
    (cd "$WORK" && cpack -G DEB --config "$BUILD/CPackConfig.cmake" >cpack.log 2>&1) ||
        { tail -20 "$WORK/cpack.log"; fail "cpack failed"; }
    DEB=$(ls "$WORK"/proofdesk_*_*.deb 2>/dev/null | head -1)
    [ -n "$DEB" ] || fail "no proofdesk_VERSION_ARCH.deb in: $(ls "$WORK")"
    [ "$(dpkg-deb -f "$DEB" Package)" = proofdesk ] || fail "package name"
    DEPENDS=$(dpkg-deb -f "$DEB" Depends)
    for library in $LIBRARIES; do
        echo "$DEPENDS" | grep -q "$library" || fail "Depends lacks $library: $DEPENDS"
    done
    if [ "$FLAVOUR" = headless ] && echo "$DEPENDS" | grep -q libqt6widgets6; then
        fail "a package without the console depends on Qt Widgets: $DEPENDS"
    fi
    dpkg-deb -c "$DEB" | awk '{print $6}' >"$WORK/contents"
    for file in $FILES; do
        grep -qx "./usr/$file" "$WORK/contents" || fail "the package lacks /usr/$file"
    done
    for file in $ABSENT; do
        grep -qx "./usr/$file" "$WORK/contents" && fail "a package without the console has /usr/$file"
    done
    echo "OK: $(basename "$DEB"), $(du -h "$DEB" | cut -f1), Depends: $DEPENDS"
    exit 0
fi

PREFIX=$WORK/prefix
cmake --install "$BUILD" --prefix "$PREFIX" >"$WORK/install.log"
for file in $FILES; do
    [ -e "$PREFIX/$file" ] || fail "cmake --install put no $file"
done
for file in $ABSENT; do
    [ ! -e "$PREFIX/$file" ] || fail "cmake --install of a build without the console put $file"
done
[ -x "$PREFIX/bin/proofdesk-sandbox" ] || fail "the installed sandbox is not executable"
if [ "$FLAVOUR" != headless ]; then
    if command -v desktop-file-validate >/dev/null; then
        desktop-file-validate "$PREFIX/share/applications/$APP_ID.desktop" || fail "desktop entry"
    fi
    if command -v appstreamcli >/dev/null; then
        appstreamcli validate --no-net "$PREFIX/share/metainfo/$APP_ID.metainfo.xml" \
            >"$WORK/as.log" || { cat "$WORK/as.log"; fail "AppStream metainfo"; }
    fi
    grep -q "^Exec=proofdesk$" "$PREFIX/share/applications/$APP_ID.desktop" || fail "Exec line"
fi
"$PREFIX/bin/proofdesk" serve --help | grep -q -- "--listen" || fail "proofdesk serve --help"

# The installed server runs a program in the installed sandbox (beside it), nothing of the build.
command -v curl >/dev/null || { echo "curl is not installed"; exit 77; }
BIN=$PREFIX/bin/proofdesk
KEY=$("$BIN" keys create --data-dir "$WORK/data" --project install 2>/dev/null) ||
    fail "the installed proofdesk could not mint a key"
# shellcheck source=../support/proofdesk-serve.sh
. "$SOURCE/tests/support/proofdesk-serve.sh"
start_proofdesk_serve "$BIN" "$WORK/data"
R=$(curl -sS -H "api-key: $KEY" -F programFile=@"$SOURCE/resources/samples/fibonacci.json" \
    -F layout=small -F result=TRACE_GENERATION "$P/core-query") || fail "POST /core-query: $R"
ID=$(echo "$R" | sed -E 's/.*"coreQueryId":"([^"]*)".*/\1/')
[ -n "$ID" ] && [ "$ID" != "$R" ] || fail "no coreQueryId in: $R"
for _ in $(seq 1200); do
    STATUS=$(curl -sf "$P/core-query/$ID" | sed -E 's/.*"status":"([A-Z_]*)".*/\1/') || true
    case "$STATUS" in
    DONE) echo "OK: installed in $PREFIX; the installed server traced the sample"; exit 0 ;;
    FAILED) fail "the installed server failed the sample: $(curl -s "$P/core-query/$ID")" ;;
    esac
    sleep 0.05
done
fail "the installed server did not finish the sample"
