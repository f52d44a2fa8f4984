#!/bin/bash
greet() {
  echo "hi $1"
}
function build {
  make all
}
function deploy() ( cd x; ls )
