#!/usr/bin/env bash
# macOS: dist/Fanyi.app (from build.spec) → dist/Fanyi-<v>-macos-<arch>.dmg, a disk image with
# the app and a link to /Applications to drag it onto.
# Usage, from the repository root after PyInstaller: packaging/macos/make_dmg.sh VERSION
set -euo pipefail
version=$1
arch=$(uname -m)
stage=build/dmg
rm -rf "$stage"
mkdir -p "$stage"
ditto dist/Fanyi.app "$stage/Fanyi.app"  # ditto keeps the symlinks and signatures inside the bundle
ln -s /Applications "$stage/Applications"
hdiutil create -volname "Fanyi $version" -srcfolder "$stage" -fs HFS+ -format UDZO -ov \
  "dist/Fanyi-$version-macos-$arch.dmg"
echo "wrote dist/Fanyi-$version-macos-$arch.dmg"
