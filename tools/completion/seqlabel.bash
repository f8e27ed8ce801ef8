# bash completion for seqlabel (installed as <datadir>/bash-completion/completions/seqlabel).
# The options come from each command's own --help (the options its option lines
# name, not words of its prose), so they never fall behind it; values are
# completed where they are a fixed list or a file of a kind.
_seqlabel()
{
    local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}
    local cmd=${COMP_WORDS[0]} sub=${COMP_WORDS[1]}
    local commands="label features info train eval average bench"
    COMPREPLY=()
    if [[ $COMP_CWORD -eq 1 ]]; then
        COMPREPLY=($(compgen -W "$commands help --help --version" -- "$cur"))
        return
    fi
    if [[ $sub == help ]]; then # seqlabel help COMMAND
        [[ $COMP_CWORD -eq 2 ]] && COMPREPLY=($(compgen -W "$commands" -- "$cur"))
        return
    fi
    # --format=csv: bash splits the word at '=' (COMP_WORDBREAKS); the value
    # is completed as after --format. Where '=' is no word break, the word is
    # whole, and each value is offered with the option before it.
    local glued=
    if [[ $cur == = && $COMP_CWORD -ge 3 ]]; then
        cur='' prev=${COMP_WORDS[COMP_CWORD-1]}
    elif [[ $prev == = && $COMP_CWORD -ge 3 ]]; then
        prev=${COMP_WORDS[COMP_CWORD-2]}
    elif [[ $cur == --*=* ]]; then
        glued=${cur%%=*}= prev=${cur%%=*} cur=${cur#*=}
    fi
    # bench's own commands, each with its options
    local -a help=("$sub")
    if [[ $sub == bench ]]; then
        if [[ $COMP_CWORD -eq 2 ]]; then
            COMPREPLY=($(compgen -W "features encoder label train --help" -- "$cur"))
            return
        fi
        help=(bench "${COMP_WORDS[2]}")
    fi
    local values=
    case $sub:$prev in
        label:--format) values="audacity frames jsonl rttm textgrid webvtt summary srt csv" ;;
        features:--format) values="npy tsv" ;;
        *:--smoothing) values="none viterbi" ;;
        *:--raw-format) values="s16le f32le ulaw alaw gsm g722" ;;
        features:--window) values="povey hann hamming rectangular" ;;
        features:--resample-quality) values="best medium fast" ;;
        eval:--split) values="train valid test" ;;
        eval:--events) values="all" ;;
        label:--time-origin) values="now file" ;;
        train:--activation) values="relu gelu" ;;
        train:--norm) values="post pre" ;;
        train:--schedule) values="cosine linear" ;;
        *:--model|*:--init|*:--teacher)
            COMPREPLY=($(compgen -P "$glued" -f -X '!*.slm' -- "$cur") $(compgen -P "$glued" -d -- "$cur"))
            return ;;
        label:--split|*:--cache-dir)
            COMPREPLY=($(compgen -P "$glued" -d -- "$cur"))
            return ;;
        *:-o|*:--output|*:--out|*:--cut|*:--manifest|*:--valid|*:--hyp|*:--checkpoint|*:--noise-list)
            COMPREPLY=($(compgen -P "$glued" -f -- "$cur"))
            return ;;
    esac
    if [[ -n $values ]]; then
        COMPREPLY=($(compgen -P "$glued" -W "$values" -- "$cur"))
    elif [[ $cur == -* ]]; then
        local opts
        # option lines begin with two spaces and an option; a line may name
        # several, comma-separated ("-o, --output OUT"; "--pad-before S, --pad-after S");
        # the usage lines name the options a command needs ("usage: seqlabel
        # average -o OUT MODEL...", eval's two lines)
        local text
        text=$("$cmd" "${help[@]}" --help 2>/dev/null)
        opts=$( { grep -E -- '^  -' <<< "$text" | grep -oE -- '(^  |, )--?[a-z][a-z0-9-]*'
                  sed -n '/^usage:/,/^$/p' <<< "$text" | grep -oE -- ' --?[a-z][a-z0-9-]*'
                } | sed 's/^[ ,]*//' | sort -u)
        COMPREPLY=($(compgen -W "$opts" -- "$cur"))
    else
        COMPREPLY=($(compgen -f -- "$cur"))
    fi
}
complete -o filenames -F _seqlabel seqlabel
