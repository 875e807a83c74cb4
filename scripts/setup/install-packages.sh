#!/usr/bin/env bash
# The Debian packages Lamina builds and tests with, installed when missing
# (scripts/setup.sh and scripts/test.sh both run this; it costs a dpkg query
# when everything is there).
set -euo pipefail

# System packages: EGL + GLES 3 + GBM (the GPU backend, and Mesa's llvmpipe
# for machines without a GPU), libpng (decoding), libdeflate (PNG encoding), libjpeg-turbo (JPEG decoding), libwebp, FreeType/HarfBuzz/fontconfig and a
# fonts for text (Latin, CJK, colour emoji), FriBidi (bidi) and ICU (line breaking), Unicode's test data
# (unicode-data) for both, Python for the conformance comparison, valgrind
# for the leak check, ffmpeg for MP4 output.
packages=(
  libegl-dev libgles-dev libgbm-dev libegl-mesa0 libgl1-mesa-dri
  libpng-dev libdeflate-dev libturbojpeg0-dev libwebp-dev libimagequant-dev libfreetype-dev libharfbuzz-dev libfontconfig-dev fonts-dejavu-core fonts-liberation
  libfribidi-dev libicu-dev unicode-data fonts-noto-color-emoji fonts-wqy-microhei
  python3 python3-venv pkg-config valgrind
  libcurl4-openssl-dev libpq-dev postgresql
)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing ${missing[*]}" >&2
  sudo=""; [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
fi
# ffmpeg (MP4 output needs only the program and x264), chromium (the
# text tests compare line breaks and bidi order with a browser's) and
# qemu-user (scripts/checks/processor.sh runs the build on an emulated
# older processor) alone, without what they recommend (a desktop's worth of
# codecs, sound servers and themes).
for program in ffmpeg chromium qemu-user; do
  if ! dpkg-query -W -f='${Status}' "$program" 2>/dev/null | grep -q "install ok installed"; then
    echo "setup: installing $program" >&2
    sudo=""; [ "$(id -u)" -eq 0 ] || sudo="sudo"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "$program" >/dev/null
  fi
done

# The tools below live in .build-tools (ignored by git): a link to a folder
# of this user's cache, so that a fresh clone (CI's) finds them made.
# LAMINA_TOOLS_CACHE names another folder.
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
if [ ! -e "$repo/.build-tools" ]; then
  cache="${LAMINA_TOOLS_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/lamina-build-tools}"
  mkdir -p "$cache"
  ln -s "$cache" "$repo/.build-tools"
fi
# Its real path: the venv's scripts and the fontconfig file below name it,
# and must not name a clone that may be gone.
tools_dir="$(cd -P "$repo/.build-tools" && pwd)"

# Python tools of the server's tests, in a virtual environment
# (.build-tools/venv): schemathesis (the OpenAPI check), kubernetes-validate
# (the manifests, offline), openapi-spec-validator, PyYAML, and Playwright
# (which drives Debian's chromium through the playground; it downloads no
# browser of its own). Pinned, so every run tests alike.
venv="$tools_dir/venv"
tools=(schemathesis==4.32.5 kubernetes-validate==1.37.0 openapi-spec-validator==0.9.0 PyYAML==6.0.3 playwright==1.65.2)
if [ "$(cat "$venv/tools.txt" 2>/dev/null)" != "${tools[*]}" ] \
   || ! "$venv/bin/python" -c "import schemathesis, kubernetes_validate, openapi_spec_validator, yaml, playwright" 2>/dev/null; then
  echo "setup: installing ${tools[*]} into $venv" >&2
  python3 -m venv "$venv"
  "$venv/bin/python" -m pip install --quiet --disable-pip-version-check "${tools[@]}"
  echo "${tools[*]}" > "$venv/tools.txt"
fi

# Fonts that change fontconfig's answers (Debian's fonts-urw-base35, which
# ghostscript and ImageMagick bring: with it, fontconfig's "Helvetica" is
# Nimbus Sans), unpacked into .build-tools and never installed: the tests
# load them through a private fontconfig configuration
# (.build-tools/fontconfig-extra.conf) to show that Lamina's text does not
# change with what else a machine has.
extra="$tools_dir/fonts-extra"
if [ ! -f "$tools_dir/fontconfig-extra.conf" ]; then
  echo "setup: unpacking fonts-urw-base35 into $extra (not installed)" >&2
  rm -rf "$extra" && mkdir -p "$extra/deb"
  (cd "$extra/deb" && { apt-get download fonts-urw-base35 >/dev/null 2>&1 \
     || { sudo=""; [ "$(id -u)" -eq 0 ] || sudo="sudo"; $sudo apt-get update -qq && apt-get download fonts-urw-base35 >/dev/null 2>&1; }; })
  dpkg-deb -x "$extra"/deb/fonts-urw-base35_*.deb "$extra/root"
  {
    echo '<?xml version="1.0"?>'
    echo '<!DOCTYPE fontconfig SYSTEM "urn:fontconfig:fonts.dtd">'
    echo '<fontconfig>'
    echo '  <include ignore_missing="yes">/etc/fonts/fonts.conf</include>'
    echo "  <dir>$extra/root/usr/share/fonts</dir>"
    for conf in "$extra"/root/usr/share/fontconfig/conf.avail/*.conf; do echo "  <include>$conf</include>"; done
    echo "  <cachedir>$extra/cache</cachedir>"
    echo '</fontconfig>'
  } > "$tools_dir/fontconfig-extra.conf.tmp"
  mv "$tools_dir/fontconfig-extra.conf.tmp" "$tools_dir/fontconfig-extra.conf"
fi
