# What zsh completes for a command line, as a real interactive zsh offers it: the "capture completions" technique
# (after Valodim/zsh-capture-completion). An interactive `zsh -f -i` runs in a zpty with compinit and the script
# under test loaded, and compadd wrapped so that every match it is given is printed; the line is sent with a TAB
# and the matches are read between two NUL lines, after which the inner shell exits. No sleeps: every read
# waits for its line.
# Usage: zsh -f zsh-complete.zsh <completion script> <dump file> <line typed so far>
zmodload zsh/zpty || { print -u2 'zsh/zpty is missing'; exit 1 }
local script=$1 dump=$2 typed=$3 init=${2}.init line

cat > $init <<EOF
PROMPT=
autoload -U compinit
compinit -u -d ${(q)dump}
source ${(q)script}
bindkey '^M' undefined
bindkey '^J' undefined
bindkey '^I' complete-word
null-line() { print -rn -- \$'\0\n' }
compprefuncs=(null-line)
comppostfuncs=(null-line exit)
zstyle ':completion:*' list-grouped false
zstyle ':completion:*' insert-tab false
compadd() {
  # Calls that only compute matches (-O, -A, -D) are not offers.
  if [[ \${@[1,(i)(-|--)]} == *-(O|A|D)\\ * ]]; then
    builtin compadd "\$@"
    return
  fi
  local -a hits
  builtin compadd -A hits "\$@"
  print -rl -- \$hits
}
print ok
EOF

zpty z zsh -f -i
zpty -w z "source ${(q)init}"
while zpty -r z line; do [[ $line == ok* ]] && break; done
zpty -w z "$typed"$'\t'
integer between=0
while zpty -r z line; do
  if [[ $line == *$'\0'* ]]; then
    (( between++ )) && break
    continue
  fi
  (( between )) && print -r -- ${${line%$'\n'}%$'\r'}
done
zpty -d z
