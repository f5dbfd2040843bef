# SPDX-License-Identifier: Apache-2.0
# bash completion for profdata. The tool says what completes, from the tables
# that drive its parser and its help (`profdata __complete WORD... CURRENT`,
# one candidate a line; "@file" and "@dir" ask for the shell's file and
# folder names), so this script names no command, option or format itself.

_profdata()
{
    local -a words=() reply=()
    local i word line last
    # COMP_WORDBREAKS cuts --to=pprof into "--to" "=" "pprof": the tool is given the word whole.
    for ((i = 1; i <= COMP_CWORD; i++)); do
        word=${COMP_WORDS[i]}
        last=$((${#words[@]} - 1))
        if ((last >= 0)) && [[ $word == "=" || ${words[last]} == -*= ]]; then
            words[last]+=$word
        else
            words+=("$word")
        fi
    done
    local cur=${words[${#words[@]} - 1]}
    # What the shell replaces: the text after the last "=" when the word has one.
    local shell_cur=${COMP_WORDS[COMP_CWORD]}
    [[ $shell_cur == "=" ]] && shell_cur=
    while IFS= read -r line; do
        case $line in
            @file)
                compopt -o filenames 2>/dev/null
                while IFS= read -r word; do reply+=("$word"); done < <(compgen -f -- "$shell_cur") ;;
            @dir)
                compopt -o filenames 2>/dev/null
                while IFS= read -r word; do reply+=("$word"); done < <(compgen -d -- "$shell_cur") ;;
            *)
                if [[ $cur == -*=* ]]; then reply+=("${line#"${cur%%=*}="}"); else reply+=("$line"); fi ;;
        esac
    done < <("${COMP_WORDS[0]}" __complete "${words[@]}" 2>/dev/null)
    COMPREPLY=("${reply[@]}")
}
complete -F _profdata profdata
