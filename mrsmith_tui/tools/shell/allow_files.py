"""The read-only set's file viewers, text tools and system facts (cat, ls, sort, diff, date, ...).

Each entry lists the options that only read, spelled exactly (program.py says how).
"""

from __future__ import annotations

from mrsmith_tui.tools.shell.program import GNU, Program

FILE_AND_TEXT_PROGRAMS: dict[str, Program] = {
    "cat": Program("AbeEnstTuv", f"{GNU} show-all number-nonblank show-ends number squeeze-blank show-tabs show-nonprinting", dynamic_ok=True),
    "tac": Program("brs:", f"{GNU} before regex separator=", dynamic_ok=True),
    "nl": Program("b:d:f:h:i:l:n:ps:v:w:", f"{GNU} body-numbering= section-delimiter= footer-numbering= header-numbering= line-increment= join-blank-lines= number-format= no-renumber number-separator= starting-line-number= number-width=", dynamic_ok=True),
    "head": Program("c:n:qvz", f"{GNU} bytes= lines= quiet silent verbose zero-terminated", numeric=True, dynamic_ok=True),
    # no -f/-F/--follow (never ends), no --pid/-s/--retry
    "tail": Program("c:n:qvz", f"{GNU} bytes= lines= quiet silent verbose zero-terminated", numeric=True),
    "wc": Program("clmwL", f"{GNU} bytes chars lines max-line-length words total=", dynamic_ok=True),
    "ls": Program(
        "aAbBcCdfFgGhiI:klmnNopqQrRsStT:uUvw:xXZ1",
        f"{GNU} all almost-all author escape block-size= ignore-backups color=? directory dired classify=? file-type "
        "format= full-time group-directories-first no-group human-readable si hide= hyperlink=? indicator-style= "
        "inode ignore= kibibytes literal numeric-uid-gid hide-control-chars show-control-chars quote-name "
        "quoting-style= reverse recursive size sort= time= time-style= tabsize= width= context zero",
    ),
    "stat": Program("Lfc:t", f"{GNU} dereference file-system format= printf= terse cached=", dynamic_ok=True),
    # no -z/-Z (runs decompressors), -p (resets access times), -C/-m/-f (magic or name files)
    "file": Program("bcEhiklLNrsS0F:e:P:", f"{GNU} brief checking-printout exclude= exclude-quiet= extension keep-going mime mime-type mime-encoding no-dereference dereference no-pad no-buffer raw special-files print0 separator= parameter= apple"),
    "du": Program("0abcd:DhHklmsSxt:", f"{GNU} null all apparent-size block-size= bytes total max-depth= human-readable inodes si summarize separate-dirs one-file-system threshold= time=? time-style= exclude=", dynamic_ok=False),
    "df": Program("ahHiklPTt:x:", f"{GNU} all block-size= human-readable si inodes local no-sync sync output=? portability print-type type= exclude-type= total", operands="none"),
    "tree": Program("adfiqNQpugshDFvtcUrCJXnL:I:P:", f"{GNU} noreport charset= dirsfirst filesfirst du si prune matchdirs ignore-case gitignore filelimit= timefmt= sort= info", ),
    "sort": Program(  # no -o/--output, -T, --compress-program, --files0-from, --random-source
        "bcCdfghik:mMnrRsS:t:uVz",
        f"{GNU} ignore-leading-blanks check=? dictionary-order ignore-case general-numeric-sort human-numeric-sort "
        "ignore-nonprinting key= merge month-sort numeric-sort random-sort reverse stable buffer-size= "
        "field-separator= unique version-sort zero-terminated parallel= sort= debug",
    ),
    "uniq": Program("cdDf:is:uw:z", f"{GNU} count repeated all-repeated=? skip-fields= group=? ignore-case skip-chars= unique zero-terminated check-chars=", max_operands=1, dash_output=True),
    "cut": Program("b:c:d:f:nsz", f"{GNU} bytes= characters= delimiter= fields= complement only-delimited output-delimiter= zero-terminated", dynamic_ok=True),
    "paste": Program("d:sz", f"{GNU} delimiters= serial zero-terminated", dynamic_ok=True),
    "join": Program("a:e:ij:o:t:v:1:2:z", f"{GNU} ignore-case check-order nocheck-order header zero-terminated", max_operands=2),
    "comm": Program("123z", f"{GNU} check-order nocheck-order output-delimiter= total zero-terminated", max_operands=2),
    # no -l/--paginate (runs pr), -r/--recursive (follows links out of the tree), --to-file/--from-file/-X
    "diff": Program(
        "abBcC:dD:eEfF:hiI:nNpqsS:tTuU:vwW:x:yZ",
        f"{GNU} normal brief report-identical-files context=? unified=? ed rcs side-by-side left-column "
        "suppress-common-lines show-c-function show-function-line= label= expand-tabs initial-tab tabsize= "
        "suppress-blank-empty new-file unidirectional-new-file ignore-case ignore-file-name-case "
        "no-ignore-file-name-case ignore-tab-expansion ignore-trailing-space ignore-space-change "
        "ignore-all-space ignore-blank-lines ignore-matching-lines= text strip-trailing-cr "
        "no-dereference exclude= starting-file= minimal horizon-lines= speed-large-files color=? palette= "
        "width= line-format= old-line-format= new-line-format= unchanged-line-format= old-group-format= "
        "new-group-format= unchanged-group-format= changed-group-format= ifdef=",
        max_operands=2, check="diff_dirs",
    ),
    "cmp": Program("bi:ln:sv", f"{GNU} print-bytes ignore-initial= verbose bytes= quiet silent", max_operands=4),
    "od": Program("A:j:N:S::t:vw::abcdfilosx", f"{GNU} address-radix= skip-bytes= read-bytes= strings=? format= output-duplicates width=? traditional endian=", dynamic_ok=True),
    "hexdump": Program("bcCdoxvn:s:e:", f"{GNU}", dynamic_ok=False),
    "strings": Program("adfn:t:e:wsT:", f"{GNU} all data print-file-name bytes= radix= encoding= include-all-whitespace output-separator= target=", dynamic_ok=False, check="no_response_file"),
    "base64": Program("diw:", f"{GNU} decode ignore-garbage wrap=", max_operands=1, dynamic_ok=True),
    "md5sum": Program("btz", f"{GNU} binary text zero tag", dynamic_ok=False),
    "sha1sum": Program("btz", f"{GNU} binary text zero tag"),
    "sha224sum": Program("btz", f"{GNU} binary text zero tag"),
    "sha256sum": Program("btz", f"{GNU} binary text zero tag"),
    "sha384sum": Program("btz", f"{GNU} binary text zero tag"),
    "sha512sum": Program("btz", f"{GNU} binary text zero tag"),
    "b2sum": Program("btzl:", f"{GNU} binary text zero tag length="),
    "cksum": Program("a:l:z", f"{GNU} algorithm= length= raw tag untagged base64 zero debug"),
    "fold": Program("bsw:", f"{GNU} bytes spaces width=", numeric=True, dynamic_ok=True),
    "fmt": Program("cp:stuw:g:", f"{GNU} crown-margin prefix= split-only tagged-paragraph uniform-spacing width= goal=", numeric=True),
    "expand": Program("it:", f"{GNU} initial tabs=", numeric=True, dynamic_ok=True),
    "unexpand": Program("at:", f"{GNU} all first-only tabs=", numeric=True, dynamic_ok=True),
    "column": Program("tc:s:o:xnN:J", f"{GNU} table columns= separator= output-separator= fillrows table-columns= json table-name= keep-empty-lines"),
    "rev": Program("0", f"{GNU} zero", dynamic_ok=True),
    "tr": Program("cCdstz", f"{GNU} complement delete squeeze-repeats truncate-set1", operands="none", max_operands=2),
    "seq": Program("f:s:w", f"{GNU} format= separator= equal-width", operands="none", permute=False),
    "numfmt": Program("d:z", f"{GNU} debug delimiter= field= format= from= from-unit= grouping header=? invalid= padding= round= suffix= to= to-unit= zero-terminated", operands="none"),
    "basename": Program("as:z", f"{GNU} multiple suffix= zero", operands="none", dynamic_ok=True),
    "dirname": Program("z", f"{GNU} zero", operands="none", dynamic_ok=True),
    "realpath": Program("emLPqsz", f"{GNU} canonicalize-existing canonicalize-missing logical physical quiet strip no-symlinks zero relative-to= relative-base=", path_opts="relative-to relative-base"),
    "readlink": Program("femnqsvz", f"{GNU} canonicalize canonicalize-existing canonicalize-missing no-newline quiet silent verbose zero"),
    "date": Program("d:uI::R", f"{GNU} date= utc universal iso-8601=? rfc-email rfc-3339= resolution debug", operands="date"),
    "uname": Program("asnrvmpio", f"{GNU} all kernel-name nodename kernel-release kernel-version machine processor hardware-platform operating-system", operands="none", max_operands=0),
    "id": Program("agGnruzZ", f"{GNU} context group groups name real user zero", operands="none"),
    "whoami": Program("", GNU, operands="none", max_operands=0),
    "groups": Program("", GNU, operands="none"),
    "nproc": Program("", f"{GNU} all ignore=", operands="none", max_operands=0),
    "arch": Program("", GNU, operands="none", max_operands=0),
    "uptime": Program("ps", f"{GNU} pretty since", operands="none", max_operands=0),
    "free": Program("bkmghltwsc:", f"{GNU} bytes kibi mebi gibi tebi pebi kilo mega giga tera peta human lohi total wide si seconds= count=", operands="none", max_operands=0),
    "sleep": Program("", GNU, operands="none"),
    "which": Program("a", "", operands="none"),
}
