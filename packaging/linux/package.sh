#!/usr/bin/env bash
# Linux downloads from the PyInstaller bundle dist/fanyi: a tarball (.tar.xz) always, an AppImage when
# appimagetool is on PATH (it comes from GitHub, not PyPI or apt; the CI workflow downloads it).
# Usage, from the repository root after PyInstaller: packaging/linux/package.sh VERSION
set -euo pipefail
version=$1
arch=$(uname -m)
here=packaging/linux
bundle=dist/fanyi
icon=build/icons/fanyi-256.png

# The bundle with the launcher in front: fanyi (fanyi.sh) runs the PyInstaller executable, renamed fanyi-bin
launched=build/fanyi-launched
rm -rf "$launched"
cp -a "$bundle" "$launched"
mv "$launched/fanyi" "$launched/fanyi-bin"
install -m 755 "$here/fanyi.sh" "$launched/fanyi"

# Tarball: Fanyi-<v>-linux-<arch>/ = the bundle + desktop entry + icon + a script adding the menu entry.
# xz, not gzip: 122 MiB instead of 156 (every Linux's tar and archive manager opens it), a minute to make.
name=Fanyi-$version-linux-$arch
rm -rf "build/$name"
cp -a "$launched" "build/$name"
cp "$here/fanyi.desktop" "$here/install-desktop-entry.sh" "build/$name/"
cp "$icon" "build/$name/fanyi.png"
tar -C build -cf - "$name" | xz -T0 -6 > "dist/$name.tar.xz.part"
mv "dist/$name.tar.xz.part" "dist/$name.tar.xz"
echo "wrote dist/$name.tar.xz"

# AppDir: AppRun (a link to the launcher) + desktop entry + icon at the top, the bundle in usr/lib/fanyi
appdir=build/Fanyi.AppDir
rm -rf "$appdir"
mkdir -p "$appdir/usr/lib" "$appdir/usr/share/applications" "$appdir/usr/share/icons/hicolor/256x256/apps"
cp -a "$launched" "$appdir/usr/lib/fanyi"
ln -s usr/lib/fanyi/fanyi "$appdir/AppRun"
cp "$here/fanyi.desktop" "$appdir/fanyi.desktop"
cp "$here/fanyi.desktop" "$appdir/usr/share/applications/fanyi.desktop"
cp "$icon" "$appdir/fanyi.png"
cp "$icon" "$appdir/usr/share/icons/hicolor/256x256/apps/fanyi.png"
if command -v appimagetool >/dev/null 2>&1; then
  ARCH=$arch appimagetool --no-appstream "$appdir" "dist/Fanyi-$version-$arch.AppImage"
  echo "wrote dist/Fanyi-$version-$arch.AppImage"
else
  echo "appimagetool not on PATH: no AppImage; the AppDir is $appdir (appimagetool $appdir makes one)"
fi
