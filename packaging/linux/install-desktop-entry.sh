#!/bin/sh
# Puts Fanyi into this user's application menu (no root). Run it from the unpacked tarball's folder;
# run it again after moving the folder.
set -eu
here="$(cd "$(dirname "$0")" && pwd)"
share="${XDG_DATA_HOME:-$HOME/.local/share}"
mkdir -p "$share/applications" "$share/icons/hicolor/256x256/apps"
cp "$here/fanyi.png" "$share/icons/hicolor/256x256/apps/fanyi.png"
sed "s|^Exec=fanyi$|Exec=\"$here/fanyi\"|" "$here/fanyi.desktop" > "$share/applications/fanyi.desktop"
echo "Fanyi is in the application menu. To remove it:"
echo "  rm '$share/applications/fanyi.desktop' '$share/icons/hicolor/256x256/apps/fanyi.png'"
