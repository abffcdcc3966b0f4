#!/usr/bin/env perl
#
# tools/choice.pl - which path each module should take on a named core,
# and the table Configure --cpu=NAME applies (docs/perf/choice.md).
#
#   perl tools/choice.pl [--work DIR] [--tree DIR] [--out docs/perf/choice.md]
#        measure and write docs/perf/choice.md (--tree: the source tree
#        whose Configure and modules are built, default this one; e.g. a
#        `git archive HEAD` export, so that edits in progress stay out)
#   perl tools/choice.pl --update-configure
#        copy the choice block of docs/perf/choice.md into Configure's
#        table (between "# BEGIN cpu choice table" and "# END ...")
#   perl tools/choice.pl --check
#        exit 1 when Configure's table differs from docs/perf/choice.md
#
# Whole-call estimate, per path, size class and core:
#   cycles = I(path, size) / IPC(path, core)
# I is the instruction count per call that tools/icount.sh measured under
# qemu (docs/perf/icount.md: exact, deterministic, prologue, tails and
# loop control included), like with like: the asm entry called directly
# (column asm:<name>) against the C reference called directly (c,
# c-ref26, c-ref64), neither through the public API.  Whichever path a
# build takes, callers reach it through the same API checks and library
# dispatch, so those instructions are common to both and left out of
# both; reading api:<name> for asm against bare c charged them to asm
# alone (%modules below says more).  IPC is what llvm-mca predicts for
# the path's marked inner loop(s) on that core (for the C references:
# gcc's inner loops, both Montgomery loops together).  In other words every
# instruction of the call is charged at the rate of the hot loop: exact
# for the loop's share, crude for the rest (setup, final subtraction,
# NEON carry passes, the scalar blocks around a NEON run), which weighs
# most at the smallest size class.  Cores LLVM does not model get
# published figures (cited per row) or no estimate.
#
# Region files: the run configures a build of each row, lets tools/mca.pl
# cut the marked regions (through a pass-through llvm-mca-19 wrapper on
# PATH that keeps the file it is given), then runs llvm-mca per region for
# the cores below.
#
use strict;
use warnings;
use Cwd qw(abs_path);
use File::Basename qw(dirname);
use File::Path qw(make_path remove_tree);
use File::Temp qw(tempdir);
use Getopt::Long;

my $src = abs_path(dirname(abs_path($0)) . '/..');
my %o = (work => '', tree => '', out => "$src/docs/perf/choice.md", 'update-configure' => 0, check => 0);
GetOptions(\%o, 'work=s', 'tree=s', 'out=s', 'update-configure', 'check') or die "choice.pl: bad options\n";
my $tree = $o{tree} ne '' ? abs_path($o{tree}) : $src;
my $mca = 'llvm-mca-19';

# ---- the choice block of choice.md <-> Configure's table ------------------------
sub read_block {
    my ($file) = @_;
    open my $fh, '<', $file or die "choice.pl: $file: $!\n";
    my $t = do { local $/; <$fh> };
    $t =~ /^```choice\n(.*?)^```/ms or die "choice.pl: no ```choice block in $file\n";
    my @rows;
    for (split /\n/, $1) {
        next if /^\s*(#|$)/;
        my ($core, $arch, @kv) = split ' ';
        my %r = (core => $core, arch => $arch, c => [], clear => []);
        for (@kv) {
            my ($k, $v) = /^(c|clear)=(.*)$/ or die "choice.pl: bad field '$_'\n";
            $r{$k} = [grep { $_ ne '' } split /,/, $v];
        }
        push @rows, \%r;
    }
    return @rows;
}
sub configure_table {
    my (@rows) = @_;
    my (%by, $t);
    push @{ $by{ $_->{core} } }, $_ for @rows;
    $t = '';
    for my $core (sort keys %by) {
        $t .= "    '$core' => {\n";
        for my $r (sort { $a->{arch} cmp $b->{arch} } @{ $by{$core} }) {
            $t .= sprintf "        %-9s => { c => [qw(%s)], clear => [qw(%s)] },\n",
                          $r->{arch}, "@{ $r->{c} }", "@{ $r->{clear} }";
        }
        $t .= "    },\n";
    }
    return "my %cpu_choice = (\n$t);\n";
}
if ($o{'update-configure'} || $o{check}) {
    my $want = configure_table(read_block($o{out}));
    my $cf = "$src/Configure";
    open my $fh, '<', $cf or die "choice.pl: $cf: $!\n";
    my $t = do { local $/; <$fh> };
    close $fh;
    $t =~ /^# BEGIN cpu choice table[^\n]*\n(.*?)^# END cpu choice table/ms
        or die "choice.pl: no choice table markers in Configure\n";
    my $have = $1;
    if ($o{check}) {
        if ($have ne $want) {
            print STDERR "choice.pl: Configure's table differs from $o{out}; run perl tools/choice.pl --update-configure\n";
            exit 1;
        }
        print "choice.pl: Configure's table matches $o{out}\n";
        exit 0;
    }
    $t =~ s/^(# BEGIN cpu choice table[^\n]*\n).*?(^# END cpu choice table)/$1$want$2/ms;
    open $fh, '>', $cf or die "choice.pl: $cf: $!\n";
    print $fh $t;
    close $fh;
    print "choice.pl: Configure's table updated from $o{out}\n";
    exit 0;
}

# ---- what is measured ----------------------------------------------------------
# Rows: one build per architecture family.  icount = the section of
# docs/perf/icount.md; triple = llvm-mca's.
my @builds = (
    { row => 'armv7', arch => 'arm', target => 'linux-armv4',
      args => ['--cross-compile-prefix=arm-linux-gnueabihf-', '-marm', '-march=armv7-a', '-mfpu=neon'],
      triple => 'armv7a-linux-gnueabihf' },
    { row => 'aarch64', arch => 'aarch64', target => 'linux-aarch64', args => [],
      triple => 'aarch64-linux-gnu' },
    { row => 'mips32r2-el', arch => 'mips', target => 'linux-mips32',
      args => ['--cross-compile-prefix=mipsel-linux-gnu-', '-march=mips32r2'],
      triple => 'mipsel-linux-gnu' },
);
# Per arch and module: primitive(s) in icount.md, size classes, and per
# path (richest first, the default first, C last): the icount.md column
# (a|b: the first that has the primitive), the mca regions whose IPC it
# runs at, and the capability bit the module needs to take the path (the
# module takes the first path whose bit is not cleared; C = no-<m>-asm).
#
# Like with like: an asm path reads the asm:<name> column (the assembly
# entry called directly) and C the c / c-ref* column (the C reference
# called directly), never api:<name>.  A build that takes C for a module
# still goes through the same public API and library dispatch, so those
# instructions are common to both paths: the api: word columns carry the
# API's argument and overlap checks (37 to 65 instructions a call on
# armv7), which set against a bare c column charged them to asm alone and
# moved Cortex-A57/A72 AArch32 words to C (fa3ecdb on wip-icount).  The
# Montgomery and Poly1305 api: columns are the internal dispatch, without
# the API checks, but still not the bare call (bn_mont_mul_any's n0 copy;
# asmcrypt_poly1305_init), so they read asm: too.
sub asm_path {    # name, regions, capability bit[, icount.md fallback column]
    my ($name, $regions, $bit, @also) = @_;
    return [$name, join('|', map { "asm:$_" } $name, @also), $regions, $bit];
}
my @word_prims = qw(bn_mul_add_words bn_mul_words bn_add_words bn_cnd_sub_words);
sub mont_module {
    return { module => 'mont', prim => 'bn_mont_mul', unit => 'bits', sizes => [512, 1024, 2048, 4096],
             paths => [@_, ['c', 'c', ['bn_mul_mont_c.loop1', 'bn_mul_mont_c.loop2'], 'c']] };
}
sub words_module {
    return { module => 'words', prim => [@word_prims], unit => 'limbs', sizes => [8, 32, 128],
             paths => [@_, ['c', 'c', [map { "${_}_c" } @word_prims], 'c']] };
}
sub poly1305_module {    # the C reference (ref26 or ref64), the asm paths
    my ($ref, @paths) = @_;
    return { module => 'poly1305', prim => 'poly1305', unit => 'bytes', sizes => [64, 1024, 16384],
             paths => [@paths, ['c', "c-$ref", ["poly1305_${ref}_blocks"], 'c']] };
}
my %modules = (
    arm => [
        mont_module(asm_path('armv7-neon', ['mont_inner_neon'], 'NEON'),
                    asm_path('armv6-umaal', ['mont_inner_x2'], 'UMAAL'),
                    asm_path('armv4', ['mont_inner_v4'], '')),
        # bn_add_words and bn_cnd_sub_words have no UMAAL code: armv4's
        words_module(asm_path('armv6-umaal', ['bn_mul_add_words_umaal', 'bn_mul_words_umaal', 'bn_add_words', 'bn_cnd_sub_words'], 'UMAAL', 'armv4'),
                     asm_path('armv4', ['bn_mul_add_words_v4', 'bn_mul_words_v4', 'bn_add_words', 'bn_cnd_sub_words'], '')),
        poly1305_module('ref26', asm_path('armv7-neon', ['poly1305_blocks_neon4'], 'NEON'),
                                 asm_path('armv4', ['poly1305_blocks'], '')),
    ],
    aarch64 => [
        mont_module(asm_path('armv8', ['armv8_mont_4x'], '')),
        words_module(asm_path('armv8', [@word_prims], '')),
        poly1305_module('ref64', asm_path('armv8-neon', ['poly1305_blocks_neon'], 'NEON'),
                                 asm_path('armv8', ['poly1305_blocks'], '')),
    ],
    mips => [
        mont_module(asm_path('mips32r2', ['bn_mul_mont_inner'], '')),
        words_module(asm_path('mips32r2', [@word_prims], '')),
        poly1305_module('ref26', asm_path('mips32r2', ['poly1305_blocks32_r2_loop'], 'R2'),
                                 asm_path('mips32', ['poly1305_blocks32_madd_loop'], '')),
    ],
);
# Capability bits and the modules that read them at run time (a bit is
# cleared only when every reader prefers a path without it; modexp has no
# row here and counts as wanting its bits).
my %readers = (
    arm     => { NEON => ['mont', 'poly1305'], UMAAL => ['mont', 'words'] },
    aarch64 => { NEON => ['poly1305', 'modexp'] },
    mips    => { R2 => ['poly1305'] },
);

# The named cores.  model: llvm-mca -mcpu (undef: LLVM 19 has no model);
# note: what that model is.
my @cores = (
    { core => 'cortex-a7',  arch => 'arm', note => 'no LLVM model (ARM backend: no scheduling information)' },
    { core => 'cortex-a8',  arch => 'arm', note => 'no LLVM model (itineraries only; llvm-mca needs a machine model)' },
    { core => 'cortex-a9',  arch => 'arm', model => 'cortex-a9', note => 'LLVM Cortex-A9 model' },
    { core => 'cortex-a15', arch => 'arm', model => 'cortex-a15', note => 'LLVM maps cortex-a15 onto its Cortex-A9 model (same numbers as A9)' },
    { core => 'cortex-a53', arch => 'arm', note => 'no LLVM model for AArch32 code (the AArch64 backend models it: see the aarch64 table)' },
    { core => 'cortex-a55', arch => 'arm', note => 'no LLVM model for AArch32 code (see the aarch64 table)' },
    { core => 'cortex-a57', arch => 'arm', model => 'cortex-a57', note => 'LLVM Cortex-A57 model' },
    { core => 'cortex-a72', arch => 'arm', model => 'cortex-a72', note => 'LLVM maps cortex-a72 onto its Cortex-A57 model' },
    { core => 'swift',      arch => 'arm', model => 'swift', note => 'LLVM Swift model' },
    { core => 'cortex-a53', arch => 'aarch64', model => 'cortex-a53', note => 'LLVM Cortex-A53 model' },
    { core => 'cortex-a55', arch => 'aarch64', model => 'cortex-a55', note => 'LLVM Cortex-A55 model' },
    { core => 'cortex-a57', arch => 'aarch64', model => 'cortex-a57', note => 'LLVM Cortex-A57 model' },
    { core => 'cortex-a72', arch => 'aarch64', model => 'cortex-a72', note => 'LLVM maps cortex-a72 onto its Cortex-A57 model' },
    { core => '24k',   arch => 'mips', model => 'mips32r2', stand_in => 1,
      note => 'no LLVM model; stand-in: LLVM\'s generic MIPS32r2 model (single-issue, in-order, like the 24K pipeline)' },
    { core => '74k',   arch => 'mips', note => 'no LLVM model (dual-issue out-of-order: the generic in-order model does not stand in)' },
    { core => '1004k', arch => 'mips', model => 'mips32r2', stand_in => 1,
      note => 'no LLVM model; stand-in: LLVM\'s generic MIPS32r2 model (the 1004K has the 24K-class single-issue pipeline)' },
    { core => 'p5600', arch => 'mips', model => 'p5600', substitute => 1,
      note => 'LLVM P5600 model, with the one-cycle ALU instructions it cannot resolve (addu, addiu, sltu, shifts, branches) replaced by xor on the same registers (crude: see tools/choice.pl)' },
    { core => 'i6400', arch => 'mips', note => 'no model in LLVM 19 (LLVM 22 adds one; not installed here); runs MIPS64r6 code, not these mips32r2 rows' },
);

# Published figures for cores without a model: tools/choice-published.txt
# (a data file, one cited record a line; its header gives the format).
sub read_published {
    my ($file) = @_;
    open my $fh, '<', $file or die "choice.pl: can't read $file: $!\n";
    my @rows;
    while (my $l = <$fh>) {
        next if $l =~ /^\s*(?:#|$)/;
        chomp $l;
        my ($core, $arch, $module, $fig, $src) = split / \| /, $l, 5;
        defined $src or die "choice.pl: $file:$.: want 5 fields\n";
        my $r = { core => $core, arch => $arch, module => $module, src => $src };
        if ($fig =~ s/^rank\s+//) {
            $r->{rank} = [ split ' ', $fig ];
        } else {
            for (split ' ', $fig) {
                my ($path, $v) = /^([\w-]+)=([\d.]+(?:\*[\d.]+)*)$/
                    or die "choice.pl: $file:$.: bad figure '$_'\n";
                my $x = 1;
                $x *= $_ for split /\*/, $v;
                $r->{cpb}{$path} = $x;
            }
        }
        push @rows, $r;
    }
    return @rows;
}
my @published = read_published("$src/tools/choice-published.txt");

# ---- icount.md -----------------------------------------------------------------
sub icount_tables {
    my ($row) = @_;
    open my $fh, '<', "$src/docs/perf/icount.md" or die "choice.pl: docs/perf/icount.md: $!\n";
    my $t = do { local $/; <$fh> };
    $t =~ /^## \Q$row\E\n(.*?)(?=^## |\z)/ms or die "choice.pl: no section $row in icount.md\n";
    my $sec = $1;
    my %v;    # prim -> size -> column -> value
    my @hdr;
    for my $l (split /\n/, $sec) {
        if ($l =~ /^\| primitive \|/) { @hdr = map { s/^\s+|\s+$//gr } split /\|/, $l; next }
        next unless @hdr && $l =~ /^\| (\w+) \| (\d+) \|/;
        my @c = map { s/^\s+|\s+$//gr } split /\|/, $l;
        for my $i (3 .. $#c) {
            (my $x = $c[$i]) =~ s/#//;
            $v{ $c[1] }{ $c[2] }{ $hdr[$i] } = $x if $x =~ /^[\d.]+$/;
        }
    }
    return \%v;
}

# ---- regions and llvm-mca --------------------------------------------------------
my $work = $o{work} ne '' ? $o{work} : tempdir(CLEANUP => 1);
make_path($work);
my $wrap = "$work/wrap";
make_path($wrap);
open my $wfh, '>', "$wrap/llvm-mca-19" or die "choice.pl: $wrap: $!\n";
print $wfh "#!/bin/sh\n# keeps the input file for tools/choice.pl, then runs llvm-mca-19\n"
         . "for a; do last=\$a; done\ncp \"\$last\" \"\$CHOICE_SAVE/\$(basename \"\$last\")\"\nexec /usr/bin/llvm-mca-19 \"\$@\"\n";
close $wfh;
chmod 0755, "$wrap/llvm-mca-19";

# LLVM 19's P5600 model cannot resolve the scheduling class of most
# single-cycle ALU instructions (addu, addiu, sltu, shifts, branches, nop:
# "unable to resolve scheduling class for write variant").  Each such
# instruction is replaced by one the model resolves with the same
# registers: xor rd, rs, rt (a one-cycle ALU operation on the P5600);
# branches write $0.  Dependencies and instruction count stay; what is
# lost is the branch unit (the loop-closing branch becomes an ALU op).
my %subst_count;
my $subst_n = 0;
sub substitute {
    my ($f, $triple, $cpu) = @_;
    open my $in, '<', $f or die;
    my @l = <$in>;
    close $in;
    # gcc's loops are cut in reorder mode, where the assembler fills the
    # delay slot with a nop the model cannot resolve either: the region
    # already holds its delay-slot instruction (tools/mca.pl), so noreorder
    s/^(\t\.text\n)$/$1\t.set\tnoreorder\n/ for @l;
    # what the assembler expands gcc's pseudo-instructions into
    my %pseudo = (li => 'addiu', la => 'addiu', bnez => 'bne', beqz => 'beq', b => 'beq',
                  bgez => 'bgez', neg => 'subu', not => 'nor');
    my (%bad, $g);
    ($g = $f) =~ s/\.s$/-$cpu.s/;
    $subst_n = 0;
    for my $round (1 .. 4) {
        my $out = `$mca -mtriple=$triple -mcpu=$cpu -iterations=1 -skip-unsupported-instructions=lack-sched $f 2>&1`;
        my $n = 0;
        while ($out =~ /^note: instruction:\s*(\S+)/mg) { $n++ unless $bad{$1}++ }
        last if $n == 0 && $round > 1;
        for (@l) {
            next unless /^\s+([a-z][\w.]*)\s*(.*?)\s*$/;
            my ($op, $args) = ($1, $2);
            next unless $bad{$op} || ($pseudo{$op} && $bad{ $pseudo{$op} });
            my @r = grep { !/^\$L/ } $args =~ /(\$\w+)/g;
            my ($d, @src) = $op =~ /^[bj]/ ? ('$0', @r) : (@r ? @r : ('$0'));
            push @src, '$0' while @src < 2;
            $_ = "\txor\t$d, $src[0], $src[1]\n";
            $subst_n++;
        }
        open my $o, '>', $g or die;
        print $o @l;
        close $o;
        $f = $g;
    }
    return $g;
}

my %ipc;      # arch -> core -> region name -> [insns/iter, cycles/iter]
my %commit;
my $head = `git -C $src rev-parse --short HEAD 2>/dev/null` // '';
chomp $head;
for my $b (@builds) {
    my $d = "$work/$b->{row}";
    remove_tree($d);
    make_path("$d/save");
    my $cfg = join ' ', map { "'$_'" } $b->{target}, @{ $b->{args} };
    system("cd $d && perl $tree/Configure $cfg >configure.log 2>&1 && make -s asm-sources >make.log 2>&1") == 0
        or die "choice.pl: configure/asm of $b->{row} failed (see $d)\n";
    system("cd $d && CHOICE_SAVE=$d/save PATH=$wrap:\$PATH make -s mca >mca.log 2>&1") == 0
        or die "choice.pl: make mca in $b->{row} failed (see $d/mca.log)\n";
    # region names in the order of the regions in the kept file
    open my $fh, '<', "$d/mca.log" or die;
    my @names;
    while (<$fh>) {
        next unless /^\| [^|]+ \| ([^|]+?) \| [^|]+ \|/ && !/^\| source/ && !/both loops/;
        push @names, $1;
    }
    close $fh;
    my ($allf) = sort glob("$d/save/all-*.s");
    open $fh, '<', $allf // '' or die "choice.pl: no region file kept for $b->{row}\n";
    my $all = do { local $/; <$fh> };
    close $fh;
    # split into one file per region (mca.pl wrote them back to back:
    # mode directives, .text, BEGIN rN, body, END)
    my @chunks = split /(?<=^# LLVM-MCA-END\n)/m, $all;
    for my $ch (@chunks) {
        next unless $ch =~ /^# LLVM-MCA-BEGIN r(\d+)$/m;
        my $i = $1;
        my $name = $names[$i] // "r$i";
        my $f = "$d/region-$i.s";
        open my $o, '>', $f or die;
        print $o $ch;
        close $o;
        for my $c (grep { $_->{arch} eq $b->{arch} && $_->{model} } @cores) {
            my $out = `$mca -mtriple=$b->{triple} -mcpu=$c->{model} -iterations=200 $f 2>&1`;
            if ($? != 0 && $c->{substitute}) {
                my $g = substitute($f, $b->{triple}, $c->{model});
                $out = `$mca -mtriple=$b->{triple} -mcpu=$c->{model} -iterations=200 $g 2>&1`;
                $subst_count{ $c->{core} }{$name} = $subst_n;
            }
            next if $? != 0;
            my ($it) = $out =~ /^Iterations:\s+(\d+)/m;
            my ($in) = $out =~ /^Instructions:\s+(\d+)/m;
            my ($cy) = $out =~ /^Total Cycles:\s+(\d+)/m;
            next unless $it && $in && $cy;
            $ipc{ $b->{arch} }{ $c->{core} }{$name} = [$in / $it, $cy / $it];
        }
    }
}

# ---- estimates and choices -------------------------------------------------------
my @md;
my @block;
my @summary;
push @md, '# Per-core path choice',
    '',
    "Generated by `perl tools/choice.pl` at commit $head; do not edit by hand (the `choice` block at the end is what `Configure --cpu=NAME` applies; `perl tools/choice.pl --update-configure` copies it into Configure, `--check` compares).",
    '',
    '## Method',
    '',
    'Estimated cycles per call = *instructions per call* / *IPC of the path\'s inner loop on the core*:',
    '',
    '- instructions per call: `tools/icount.sh` under qemu (docs/perf/icount.md, rows armv7, aarch64, mips32r2-el): exact and repeatable, every instruction of the call counted (setup, loop control, tails, final subtraction).  Like with like: the asm entry called directly (`asm:<name>` columns) against the C reference called directly (`c`, `c-ref26`, `c-ref64`); the public API\'s argument and overlap checks and the library dispatch, which a build pays whichever path it takes, are in neither;',
    '- IPC: llvm-mca 19 on the marked inner loop of the path (`# LLVM-MCA-BEGIN` regions of the generated .S, and gcc -O2\'s inner loops of the C references, both Montgomery loops together), 200 iterations, for each core LLVM models;',
    '- so every instruction is charged at the hot loop\'s rate.  That is exact for the loop\'s share of the call and crude for the rest (setup, the NEON Montgomery carry pass, the scalar blocks around a NEON Poly1305 run); the rest weighs most in the smallest size class (512-bit, 8 limbs, 64 B).  Out-of-order models are optimistic about memory (everything hits L1).',
    '- Cores LLVM 19 does not model get published figures where some exist (cycles per byte of another project\'s code with the same path structure: they rank paths, they do not time ours); each is cited in its row.  Where neither exists the default stays and the cell says so.',
    '- Choice rule, per core: each module takes the first asm path whose capability bit is present (the default: the richest), or C when C\'s geometric mean over the size classes of (estimate / best estimate in the class) is 5% or more below that path\'s *and* C is faster in most size classes (not only in the smallest, where the estimate is crudest).  A capability bit is cleared at build time only when, with it cleared, no module gets slower, also on a machine that lacks the other bits (so the integer Montgomery code that runs the sizes NEON does not take counts too), and one module gets 5% faster; a bit that a module without a row here reads (modexp on AArch64 reads NEON) is never cleared.  A path the model cannot schedule (ldm/stm and umaal on LLVM\'s Cortex-A9 model) has no estimate, and a module with an unestimated default keeps it.',
    '- The named cores that are not in LLVM 19: Cortex-A7, A8, and A53/A55 running AArch32 code; MIPS 24K, 74K, 1004K and I6400 (LLVM 22 models the I6400).  Cortex-A15 and A72 are LLVM aliases of its A9 and A57 models, so their columns repeat those; the published A15 figures are shown beside them as a cross-check.  The 24K and 1004K columns use LLVM\'s generic MIPS32r2 model as a stand-in (single-issue, in-order, which is the 24K-class pipeline; not a model of either core).  LLVM 19\'s P5600 model cannot resolve most one-cycle ALU instructions, which are replaced by an xor on the same registers (counts per region below its table).',
    '',
    'Cells: estimated cycles per call (Montgomery: one bn_mont_mul at that modulus size; words: one call each of bn_mul_add_words, bn_mul_words, bn_add_words and bn_cnd_sub_words at that many limbs; Poly1305: one one-shot tag of that many bytes); `#` = fastest in its size class; – = no estimate; rel. mean = geometric mean of estimate / best estimate over the size classes.',
    '';

# Estimates per core and module: path -> size -> cycles, and the mean over
# the size classes of estimate / best estimate.
sub estimates {
    my ($arch, $ic, $m, $c) = @_;
    my %est;
    my $src_kind = '';
    if ($c->{model}) {
        $src_kind = $c->{stand_in} ? 'stand-in model' : 'model';
        for my $p (@{ $m->{paths} }) {
            my ($pn, $cols, $regs) = @$p;
            # one primitive, its regions together (the C Montgomery
            # loops); or several primitives, one region each, the
            # estimate being one call of each
            my @prims = ref $m->{prim} ? @{ $m->{prim} } : ($m->{prim});
            my @groups = ref $m->{prim} ? (map { [$_] } @$regs) : ([@$regs]);
            my @rate;
            for my $g (@groups) {
                my ($in, $cy) = (0, 0);
                for my $r (@$g) {
                    my $v = $ipc{$arch}{ $c->{core} }{$r} or do { ($in, $cy) = (0, 0); last };
                    $in += $v->[0];
                    $cy += $v->[1];
                }
                push @rate, $in > 0 ? $cy / $in : undef;
            }
            next if grep { !defined } @rate;
            SIZE: for my $s (@{ $m->{sizes} }) {
                my $sum = 0;
                for my $k (0 .. $#prims) {
                    my ($i) = grep { defined } map { $ic->{ $prims[$k] }{$s}{$_} } split /\|/, $cols;
                    next SIZE unless defined $i;
                    $i *= $s if $m->{unit} eq 'bytes' || $m->{unit} eq 'limbs';   # per byte/limb -> per call
                    $sum += $i * $rate[$k];
                }
                $est{$pn}{$s} = $sum;
            }
        }
    }
    my ($pub) = grep { $_->{core} eq $c->{core} && $_->{arch} eq $arch && $_->{module} eq $m->{module} } @published;
    if (!%est && $pub && $pub->{cpb}) {
        $src_kind = 'published';
        for my $pn (keys %{ $pub->{cpb} }) {
            $est{$pn}{$_} = $pub->{cpb}{$pn} * $_ for @{ $m->{sizes} };
        }
    }
    my %mean;
    if (%est) {
        my %min;
        for my $s (@{ $m->{sizes} }) {
            for my $pn (keys %est) {
                my $v = $est{$pn}{$s} // next;
                $min{$s} = $v if !defined $min{$s} || $v < $min{$s};
            }
        }
        for my $pn (keys %est) {
            my ($l, $n) = (0, 0);
            for my $s (@{ $m->{sizes} }) {
                next unless defined $est{$pn}{$s};
                $l += log($est{$pn}{$s} / $min{$s});
                $n++;
            }
            $mean{$pn} = exp($l / $n) if $n;
        }
    }
    return (\%est, \%mean, $src_kind, $pub);
}

# The path a module takes with the capability bits of %$S cleared: the
# first asm path whose bit is not cleared, or C when its mean beats that
# by 5% and it is faster in most size classes (undef: that asm path has
# no estimate, so no choice).
sub path_under {
    my ($m, $mean, $S, $pub, $est) = @_;
    my ($asm) = grep { $_->[0] ne 'c' && !($_->[3] ne '' && $S->{ $_->[3] }) } @{ $m->{paths} };
    if (!%$mean) {          # published rank only, or nothing: the rank's first reachable path
        return undef unless $pub && $pub->{rank} && !%$S;
        return $asm->[0];
    }
    return undef unless defined $mean->{ $asm->[0] };
    return $asm->[0] unless defined $mean->{c} && $mean->{c} * 1.05 <= $mean->{ $asm->[0] };
    # and C must be faster in most size classes, not only in the
    # smallest, where the estimate is crudest
    my ($win, $n) = (0, 0);
    for my $s (@{ $m->{sizes} }) {
        my ($x, $y) = ($est->{c}{$s}, $est->{ $asm->[0] }{$s});
        next unless defined $x && defined $y;
        $n++;
        $win++ if $x < $y;
    }
    return 2 * $win > $n ? 'c' : $asm->[0];
}

sub subsets {
    my @b = @_;
    return ([]) unless @b;
    my $x = shift @b;
    my @r = subsets(@b);
    return (@r, map { [$x, @$_] } @r);
}

my @head = @md;
@md = ();
for my $arch (qw(arm aarch64 mips)) {
    my ($bd) = grep { $_->{arch} eq $arch } @builds;
    my $ic = icount_tables($bd->{row});
    push @md, "## $arch (icount row $bd->{row}, llvm-mca `-mtriple=$bd->{triple}`)", '';
    my @acores = grep { $_->{arch} eq $arch } @cores;
    push @md, '| core | source of the estimate |', '|---|---|';
    push @md, "| $_->{core} | $_->{note} |" for @acores;
    push @md, '';
    for my $c (grep { $subst_count{ $_->{core} } } @acores) {
        my $h = $subst_count{ $c->{core} };
        push @md, "$c->{core}: instructions replaced per region for the model: "
            . join(', ', map { "$_ $h->{$_}" } sort keys %$h) . '.', '';
    }
    my @mods = @{ $modules{$arch} };
    my %tabled = map { $_->{module} => 1 } @mods;
    # bits only tabled modules read; the others stay (modexp on aarch64)
    my @bits = grep { !grep { !$tabled{$_} } @{ $readers{$arch}{$_} } } sort keys %{ $readers{$arch} };
    my (%E, %decision);
    for my $c (@acores) {
        for my $m (@mods) {
            $E{ $c->{core} }{ $m->{module} } = [estimates($arch, $ic, $m, $c)];
        }
        # the cleared set: none, unless some set makes no module slower
        # and one module 5% faster (means relative to each module's best)
        my (%cost0, %path0);
        for my $m (@mods) {
            my ($est, $mean, undef, $pub) = @{ $E{ $c->{core} }{ $m->{module} } };
            $path0{ $m->{module} } = path_under($m, $mean, {}, $pub, $est) // $m->{paths}[0][0];
            $cost0{ $m->{module} } = $mean->{ $path0{ $m->{module} } };
        }
        # A set S qualifies when no module gets slower with S cleared, on
        # a machine that also lacks any other bits X (so a module's
        # fallback path counts too: the integer Montgomery code runs the
        # sizes NEON does not take), and one module gets 5% faster.
        my $cost = sub {
            my ($m, $Sh) = @_;
            my ($est, $mean, undef, $pub) = @{ $E{ $c->{core} }{ $m->{module} } };
            my $pn = path_under($m, $mean, $Sh, $pub, $est);
            return (defined $pn && defined $mean->{$pn}) ? ($pn, $mean->{$pn}) : ($pn, undef);
        };
        my ($bestS, $bestGain, %bestPath) = ([], 0, %path0);
        for my $S (subsets(@bits)) {
            next unless @$S;
            my %Sh = map { $_ => 1 } @$S;
            my ($ok, $gain, %p) = (1, 0);
            for my $X (subsets(grep { !$Sh{$_} } @bits)) {
                my %Xh = map { $_ => 1 } @$X;
                for my $m (@mods) {
                    my ($p0, $c0) = $cost->($m, \%Xh);
                    my ($p1, $c1) = $cost->($m, { %Xh, %Sh });
                    my $reads = grep { my $b = $_; grep { $_ eq $m->{module} } @{ $readers{$arch}{$b} } } @$S;
                    if (!defined $c0 || !defined $c1) {
                        $ok = 0 if $reads;      # no estimate: a reader of S blocks it
                    } else {
                        $ok = 0 if $c1 > $c0 * 1.001;
                        $gain = $c0 / $c1 - 1 if !@$X && $c0 / $c1 - 1 > $gain;
                    }
                    $p{ $m->{module} } = $p1 // $path0{ $m->{module} } if !@$X;
                }
            }
            next unless $ok && $gain >= 0.05 && $gain > $bestGain;
            ($bestS, $bestGain, %bestPath) = ($S, $gain, %p);
        }
        $decision{ $c->{core} } = { clear => $bestS, path => {%bestPath}, gain => $bestGain };
    }
    for my $m (@mods) {
        push @md, "### $m->{module}: " . (ref $m->{prim} ? join(' + ', @{ $m->{prim} }) . ' (one call of each)' : $m->{prim}), '';
        push @md, '| core | path | ' . join(' | ', map { "$_ $m->{unit}" } @{ $m->{sizes} }) . ' | rel. mean | note |';
        push @md, '|---|---|' . ('---:|' x @{ $m->{sizes} }) . '---:|---|';
        for my $c (@acores) {
            my ($est, $mean, $src_kind, $pub) = @{ $E{ $c->{core} }{ $m->{module} } };
            my $chosen = $decision{ $c->{core} }{path}{ $m->{module} };
            my $shown = 0;
            for my $p (@{ $m->{paths} }) {
                my $pn = $p->[0];
                next unless $est->{$pn};
                my @cells;
                for my $s (@{ $m->{sizes} }) {
                    my $v = $est->{$pn}{$s};
                    if (!defined $v) { push @cells, '–'; next }
                    my ($fast) = sort { ($est->{$a}{$s} // 9e99) <=> ($est->{$b}{$s} // 9e99) } keys %$est;
                    push @cells, sprintf('%.0f', $v) . ($fast eq $pn ? '#' : '');
                }
                my $n = $pn eq $chosen ? "**chosen** ($src_kind)" : '';
                $n .= "; $pub->{src}" if $pub && $src_kind eq 'published' && $pn eq $chosen;
                push @md, "| $c->{core} | $pn | " . join(' | ', @cells) . sprintf(' | %.2f | %s |', $mean->{$pn}, $n);
                $shown++;
            }
            if (!$est->{$chosen}) {
                my $why = $shown ? "the model cannot schedule the $chosen path on this core, so it is kept"
                        : $pub && $pub->{rank} ? "published rank @{ $pub->{rank} }; $pub->{src}"
                        : "default kept: $c->{note}; no published figure found";
                push @md, "| $c->{core} | $chosen | " . join(' | ', ('–') x @{ $m->{sizes} }) . " | | **chosen**: $why |";
            }
            if ($pub && $src_kind ne 'published' && $pub->{cpb}) {
                my $cpb = $pub->{cpb};
                push @md, "| $c->{core} | (published) | " . join(' | ', ('') x @{ $m->{sizes} })
                    . " | | cross-check, $pub->{src}: ranks " . join(' < ', sort { $cpb->{$a} <=> $cpb->{$b} } keys %$cpb) . ' |';
            }
        }
        push @md, '';
    }
    for my $c (@acores) {
        my $d = $decision{ $c->{core} };
        my @c = grep { $d->{path}{$_} eq 'c' } map { $_->{module} } @mods;
        my @why = map { "$_->{module}: $d->{path}{ $_->{module} }" } @mods;
        push @block, sprintf '%-10s %-8s c=%s clear=%s', $c->{core}, $arch, join(',', @c), join(',', @{ $d->{clear} });
        push @summary, sprintf '| %s | %s | %s | %s | %s |', $c->{core}, $arch,
            (@c ? join(', ', map { "no-$_-asm" } @c) : '–'),
            (@{ $d->{clear} } ? join(', ', @{ $d->{clear} }) . sprintf(' (%.0f%% faster for the best-served module, none slower)', 100 * $d->{gain}) : '–'),
            join('; ', @why);
    }
}
my @tail = ('## What `Configure --cpu=NAME` does', '',
    'Also taken from `-mcpu=NAME`, `-mtune=NAME` or `-march=NAME` in the flags when NAME is a core below (gcc\'s MIPS spellings 24kc, 24kf2_1, 74kf, 1004kc, ... and qemu\'s 24Kf, 74Kf, P5600 map to their family).  A core of another arch than the target is refused; `--cpu=generic`, a core outside the table and a build without it keep the default (every module\'s asm, every detected capability).  C modules are built as with `no-<module>-asm`; cleared bits go into `ASMCRYPT_CAP_BUILD_MASK` in conf.h, which crypto/cpucap.c ANDs into what it detects (so `ASMCRYPT_CAP` cannot bring them back), and the core is named by `ASMCRYPT_CPU_CHOICE`.  `asmcrypt_impl()` then names the path that runs.',
    '',
    '| core | arch | C modules | capabilities cleared (conf.h ASMCRYPT_CAP_BUILD_MASK) | path per module |',
    '|---|---|---|---|---|', @summary, '',
    'The block Configure reads (core, arch, modules built as C, capability bits removed):', '',
    '```choice', @block, '```', '');
my @changed = grep { !/\| – \| – \|/ } @summary;
@md = (@head, '## Summary', '',
    sprintf('Cores where the estimates move a module off the generic default; the other %d of the %d core rows keep it, so the default (every module\'s richest asm path) stays the best generic choice:', @summary - @changed, scalar @summary), '',
    '| core | arch | C modules | capabilities cleared | path per module |', '|---|---|---|---|---|',
    @changed, '', @md, @tail);
my $text = join("\n", @md) . "\n";
open my $ofh, '>', $o{out} or die "choice.pl: $o{out}: $!\n";
print $ofh $text;
close $ofh;
print "choice.pl: wrote $o{out}\n";
