#!/usr/bin/env perl
#
# tools/ct-static.pl - static constant-time check of generated assembly.
#
#   perl tools/ct-static.pl --arch ARCH [--abi ABI] [--cpp 'CC -E FLAGS']
#        [--spec FILE] [--entry NAME]... [--expect-leak] [-v] FILE.S...
#
#   ARCH  x86_64 | aarch64 | arm | mips
#   ABI   x86_64: sysv (default) | win64;  mips: o32 (default) | n32 | 64
#
# Each FILE.S is first run through --cpp (the target's compiler with -E and
# the build's flags: the #if blocks of a module pick code by ISA level,
# kernel mode and capability bits, so the check must see what the
# assembler sees), or read as it is without --cpp.  Every exported
# (.globl) symbol must have an entry in the spec table
# (tools/ct-static-spec.pl); an exported symbol without a spec is an error.
#
# From each entry the check runs a forward taint analysis to a fixpoint
# over the control-flow graph (labels, branches, calls to local labels
# analysed per call site, returns to the call site):
#   - argument registers (and stack arguments) are PUBLIC or SECRET as the
#     spec says; pointer arguments are public values;
#   - a value LOADED through a pointer is SECRET, unless the pointer is
#     derived from an argument the spec marks `ptr:public` (the modulus,
#     n0), or the load hits a byte range the spec lists as a public field
#     of that argument (a flags word in a context, say), or the address is
#     symbol/PC-relative (the module's constants and the capability word);
#   - stack slots are tracked by offset from the entry stack pointer (and
#     from each realignment): a spill of a secret taints that slot, a
#     reload returns what was stored; an access at an unknown offset in a
#     frame reads (and a store taints) every slot of that frame;
#   - every data operation makes its outputs (registers, flags, vector
#     lanes, mask registers) as secret as its inputs; flags are tracked per
#     flag, so a public loop counter decremented between secret carries
#     keeps its branch public.
# A LEAK is: a conditional branch whose condition (flags or registers)
# is secret, an indirect jump or call through a secret target, a memory
# access whose base, index (vector index for gathers/scatters) or mask is
# secret, a secret-dependent variable-latency instruction (division) or
# a variable permutation whose index is secret (treated as a lookup).  A
# predicated (ARM conditional) load, store or branch on secret flags is a
# leak; a predicated data op on secret flags is a select: its result is
# secret, nothing more (see docs/constant-time.md).
# Any instruction the arch model does not know is an ERROR: the entry
# fails, it is never silently clean.
#
# Output: one line per (file, entry): "ok", "LEAK" (with the first leaks,
# file:line and instruction) or "ERROR"; --expect-leak inverts the verdict
# (planted leaks: ok only when a leak is found).  Last line
# "N passed, N failed"; exit status 1 when anything failed.
#
use strict;
use warnings;
use File::Basename qw(dirname);
use Getopt::Long;

my ($arch, $abi, $cpp, $specfile, $expect_leak, $verbose) = ('', '', '', '', 0, 0);
my @only;
GetOptions('arch=s' => \$arch, 'abi=s' => \$abi, 'cpp=s' => \$cpp, 'spec=s' => \$specfile,
           'entry=s' => \@only, 'expect-leak' => \$expect_leak, 'v' => \$verbose)
    or die "usage: ct-static.pl --arch ARCH [--abi ABI] [--cpp CMD] FILE.S...\n";
use Cwd qw(abs_path);
my $dir = dirname(abs_path(__FILE__));
die "ct-static.pl: --arch x86_64|aarch64|arm|mips\n" unless $arch =~ /^(x86_64|aarch64|arm|mips)$/;
$specfile ||= "$dir/ct-static-spec.pl";
our $SPEC = do $specfile or die "ct-static.pl: $specfile: " . ($@ || $!) . "\n";
# Operands of an instruction: split at the commas outside brackets
# ($open / $close: the bracket characters of the arch's syntax), trimmed.
# Shared by the arch models.
sub CT::split_ops {
    my ($s, $open, $close) = @_;
    my @ops;
    my ($cur, $depth) = ('', 0);
    for my $ch (split //, $s) {
        if ($ch eq ',' && $depth == 0) { push @ops, $cur; $cur = ''; next }
        $depth++ if index($open, $ch) >= 0;
        $depth-- if index($close, $ch) >= 0;
        $cur .= $ch;
    }
    push @ops, $cur if $cur =~ /\S/;
    s/^\s+|\s+$//g for @ops;
    return @ops;
}

# A source line without its comment: from the first of the @to_eol
# markers ('//', '@', ...; in this order) to the end of the line, and a
# line whose first non-blank is '#' (cpp leftovers, llvm-mca markers).
# Shared by the arch models.
sub CT::strip_comment {
    my ($l, @to_eol) = @_;
    $l =~ s/\Q$_\E.*$// for @to_eol;
    $l =~ s/^\s*#.*$//;
    return $l;
}

# An immediate: "#", sign and whitespace allowed, decimal or 0x hex;
# undef when the text is not a plain number.  Shared by the arch models.
sub CT::num {
    my ($e) = @_;
    $e =~ s/^#//;
    $e =~ s/\s+//g;
    my ($sign, $n) = $e =~ /^([-+]?)(0x[0-9a-fA-F]+|\d+)$/ or return undef;
    my $v = $n =~ /^0x/ ? hex($n) : int($n);
    return $sign eq '-' ? -$v : $v;
}

# The state at a function's entry (the models' init): argument i (a
# [name, kind] of the spec) in register $regs->[i], those after the
# registers in $slot-byte stack slots from entry sp + $stack0; %st the
# model's fixed entries (the stack pointer).  A secret is tainted, a
# pointer the public address A:name:0, anything else public.
sub CT::entry_state {
    my ($args, $regs, $stack0, $slot, %st) = @_;
    for my $i (0 .. $#$args) {
        my ($name, $kind) = @{ $args->[$i] };
        my $v = $kind eq 'secret' ? '1|' : $kind =~ /^ptr/ ? "0|A:$name:0" : '0|';
        if ($i < @$regs) { $st{ $regs->[$i] } = $v }
        else { $st{ 'm:0:' . ($stack0 + $slot * ($i - @$regs)) } = $v }
    }
    return \%st;
}

# The arch model: defines CT::Arch::{parse, step, init, canon} (see the file).
my $model = "$dir/ct-static-$arch.pl";
do $model or die "ct-static.pl: $model: " . ($@ || $!) . "\n";
$abi ||= CT::Arch::default_abi();

my ($pass, $fail) = (0, 0);
for my $file (@ARGV) {
    my ($insns, $labels, $globals, $err) = read_asm($file);
    if ($err) { print "ERROR $file: $err\n"; $fail++; next }
    my @entries = @only ? grep { exists $labels->{$_} } @only : @$globals;
    if (!@entries) { print "ERROR $file: no exported entry\n"; $fail++; next }
    for my $e (@entries) {
        my ($verdict, $msg) = check_entry($file, $insns, $labels, $e);
        if ($expect_leak) {
            $verdict = $verdict eq 'LEAK' ? 'ok' : $verdict eq 'ok' ? 'MISSED' : $verdict;
            $msg = $verdict eq 'ok' ? "planted leak found: $msg" : $verdict eq 'MISSED' ? 'planted leak NOT found' : $msg;
        }
        if ($verdict eq 'ok') { $pass++ } else { $fail++ }
        printf "%-5s %s %s%s\n", $verdict, $file, $e, $msg ne '' ? ": $msg" : '';
    }
}
print "$pass passed, $fail failed\n";
exit($fail ? 1 : 0);

# ---------------------------------------------------------------------------
# Reading: preprocess, split into labels and instructions.
# ---------------------------------------------------------------------------
sub read_asm {
    my ($file) = @_;
    my $text;
    if ($cpp ne '') {
        $text = `$cpp -x assembler-with-cpp $file 2>&1`;
        return (undef, undef, undef, "preprocessor failed: $cpp: " . (split /\n/, $text)[0]) if $?;
    } else {
        open my $fh, '<', $file or return (undef, undef, undef, "$!");
        local $/;
        $text = <$fh>;
    }
    # C comments (raw files): keep the line count
    $text =~ s{/\*(.*?)\*/}{my $c = $1; "\n" x ($c =~ tr/\n//)}gse;
    my (@insns, %labels, @globals, %seen_g, %typed, %taken, %data);
    my $section = '.text';
    my $noreorder = 0;          # MIPS: branches have an explicit delay slot
    my @stack;                  # .pushsection
    my $line = 0;
    for my $raw (split /\n/, $text) {
        $line++;
        if ($raw =~ /^# (\d+) "/) { $line = $1 - 1; next }   # cpp line marker
        my $l = CT::Arch::strip_comment($raw);
        for my $stmt (split /;/, $l) {
            $stmt =~ s/^\s+|\s+$//g;
            while ($stmt =~ s/^([A-Za-z_.\$][\w.\$]*|\d+):\s*//) {
                my $lab = $1;
                if ($section =~ /^\.text/) { $labels{$lab} = scalar @insns }
                else { $data{$lab} = 1 }
            }
            next if $stmt eq '';
            if ($stmt =~ /^\.type\s+([\w.\$]+)\s*,\s*[\@%#]function/) { $typed{$1} = 1; next }
            if ($section =~ /^\.text/ && defined(my $as = CT::Arch::data_insn($stmt))) {
                # an instruction spelled as data (ARM's `.word 0xe12fff1e` = bx lr)
                push @insns, { text => $as, line => $line, parsed => CT::Arch::parse($as), noreorder => $noreorder };
                next;
            }
            if ($stmt =~ /^\.(quad|long|word|dword|8byte|4byte|byte|short|hword|2byte|inst|octa|value|int|ascii|asciz|string|zero|space|fill)\b\s*(.*)$/) {
                my ($dir, $args) = ($1, $2);
                $taken{$_} = 1 for grep { !/^0x/ } $args =~ /([A-Za-z_][\w.\$]*)/g;
                # data in the text (literal pools, tables) is fine where no
                # path reaches it; executing it (an instruction spelled as
                # bytes the model cannot see) is an error
                push @insns, { text => $stmt, line => $line, data => 1, parsed => {}, noreorder => $noreorder }
                    if $section =~ /^\.text/;
                next;
            }
            if ($stmt =~ /^\.(globl|global)\s+([\w.\$]+)/) {
                push @globals, $2 unless $seen_g{$2}++;
                next;
            }
            if ($stmt =~ /^\.set\s+(no)?reorder\b/) { $noreorder = defined $1; next }
            if ($stmt =~ /^\.(text|data|bss|rodata|rdata|sdata|sbss)\b/) { $section = ".$1"; next }
            if ($stmt =~ /^\.pushsection\s+([^,\s]+)/) { push @stack, $section; $section = $1; next }
            if ($stmt =~ /^\.popsection\b/) { $section = @stack ? pop @stack : '.text'; next }
            if ($stmt =~ /^\.section\s+([^,\s]+)\s*(?:,\s*(\S+))?/) {
                # Mach-O: __TEXT,__text is the text; COFF/ELF names as they are
                $section = $1 eq '__TEXT' && ($2 // '') =~ /^__text/ ? '.text' : $1;
                next;
            }
            if ($stmt =~ /^\.previous/) { $section = '.text'; next }
            next if $stmt =~ /^\./;             # other directives (data in .text is skipped too)
            next if $stmt =~ /^#/;
            next unless $section =~ /^\.text/;
            push @insns, { text => $stmt, line => $line, parsed => CT::Arch::parse($stmt), noreorder => $noreorder };
        }
    }
    # Functions reached only through their address (a pointer handed to
    # the caller, like Poly1305's func[]) are entries as well; so is every
    # typed function the spec names.
    for my $in (@insns) {
        next unless $in->{text} =~ /^(lea\w*|adr\w*|movabs\w*|la|dla|movw|movt|ldr)\s/;
        $taken{$_} = 1 for $in->{text} =~ /([A-Za-z_][\w.\$]*)/g;
    }
    # COFF and Mach-O have no .type; local labels (.L, Mach-O L...) are not functions
    $typed{$_} = 1 for grep { exists $labels{$_} && $taken{$_} && !/^\.?L[A-Za-z0-9_]/ } keys %taken;
    # an address-taken local label beside a named function (Mach-O
    # `Lpoly1305_blocks_neon:` after `_poly1305_blocks_neon:`) makes that
    # function an entry
    my %at;
    push @{ $at{ $labels{$_} } }, $_ for keys %labels;
    for my $t (grep { exists $labels{$_} && /^\.?L[A-Za-z0-9_]/ } keys %taken) {
        $typed{$_} = 1 for grep { !/^\.?L[A-Za-z0-9_]/ && spec_for($_) } @{ $at{ $labels{$t} } };
    }
    # every label the spec names is checked as an entry as well, typed or
    # not (Mach-O and COFF have no .type)
    $typed{$_} = 1 for grep { !/^\.?L[A-Za-z0-9_]/ && spec_for($_) } keys %labels;
    for my $f (sort keys %typed) {
        next if $seen_g{$f};
        push @globals, $f if $taken{$f} || spec_for($f);
        $seen_g{$f} = 1;
    }
    @globals = grep { !$data{$_} } @globals;       # exported data objects
    return (\@insns, \%labels, \@globals, undef);
}

# ---------------------------------------------------------------------------
# Abstract values: "T|ORIGIN".  T is 1 for secret.  ORIGIN says what a
# public value points to: A:arg:off (argument pointer + offset, off '?'
# when unknown), S:frame:off (stack), '' (nothing known).
# ---------------------------------------------------------------------------
sub val_join {
    my ($a, $b) = @_;
    return $a if $a eq $b;
    my ($ta, $oa) = split /\|/, $a, 2;
    my ($tb, $ob) = split /\|/, $b, 2;
    my $t = ($ta || $tb) ? 1 : 0;
    my $o = '';
    if ($oa eq $ob) { $o = $oa }
    elsif ($oa ne '' && $ob ne '') {
        my ($ka, $na) = $oa =~ /^([AS]:[^:]+):(.*)$/;
        my ($kb, $nb) = $ob =~ /^([AS]:[^:]+):(.*)$/;
        $o = "$ka:?" if defined $ka && defined $kb && $ka eq $kb;
    }
    return "$t|$o";
}

sub state_join {            # join $b into $a; returns 1 when $a changed
    my ($a, $b) = @_;
    my $changed = 0;
    for my $k (keys %$b) {
        my $old = exists $a->{$k} ? $a->{$k} : default_of($k);
        my $new = val_join($old, $b->{$k});
        if (!exists $a->{$k} || $new ne $old) { $a->{$k} = $new; $changed = 1 }
    }
    for my $k (keys %$a) {
        next if exists $b->{$k};
        my $new = val_join($a->{$k}, default_of($k));
        if ($new ne $a->{$k}) { $a->{$k} = $new; $changed = 1 }
    }
    return $changed;
}

sub default_of { return $_[0] =~ /^d:/ ? '0|D:E' : '0|' }   # d:REG = where REG was last written (E: entry)   # registers, flags and unwritten stack: caller's public values

# ---------------------------------------------------------------------------
# Memory model helpers shared by the arch models (called as main::...).
# ---------------------------------------------------------------------------
our ($CUR_SPEC, @LEAKS, @ERRORS, $CUR_I, $CUR_INSN);

sub leak  { my ($what) = @_; push @LEAKS, [$CUR_I, $what] }
sub error { my ($what) = @_; push @ERRORS, [$CUR_I, $what] }
sub taint { my ($v) = @_; return substr($v, 0, 1) eq '1' }
sub pub   { my ($o) = @_; return '0|' . ($o // '') }
sub sec   { return '1|' }
sub tval  { my @v = @_; return (grep { taint($_) } @v) ? '1|' : '0|' }
sub origin { my ($v) = @_; return (split /\|/, $v, 2)[1] }

# The parts of a value that the offset helpers below work on: (result)
# when there is nothing to offset (a secret stays itself, a public value
# that is no pointer stays plain public), else (undef, kind, offset) of
# the pointer "A:name:offset" or "S:frame:offset".
sub ptr_parts {
    my ($v) = @_;
    return ($v) if taint($v);
    my $o = origin($v);
    return ('0|') if $o eq '';
    return (undef, $o =~ /^([AS]:[^:]+):(.*)$/);
}

# pointer arithmetic: value + constant (undef = unknown constant).  Stack
# offsets may be symbolic, "Ttag+n": tag names a public register value
# (register, where it was last written, scale), so sp + 16*num + 24 is the
# same slot wherever it is computed from the same num.
sub offset_ptr {
    my ($v, $d) = @_;
    my ($done, $k, $n) = ptr_parts($v);
    return $done if defined $done;
    return "0|$k:?" if !defined $d || $n eq '?';
    return "0|$k:$1+" . ($2 + $d) if $n =~ /^(T.*)\+(-?\d+)$/;
    return "0|$k:" . ($n + $d);
}

# A new frame (sp minus a variable size, or sp realigned): named after the
# stack pointer it came from, so that paths allocating from the same point
# share it.
sub new_frame {
    my ($kind, $from) = @_;
    (my $o = origin($from)) =~ s/\W/_/g;
    return "0|S:$kind$o:0";
}

# stack pointer + a public register value (tag): a symbolic offset
sub offset_sym {
    my ($v, $tag) = @_;
    my ($done, $k, $n) = ptr_parts($v);
    return $done if defined $done;
    return "0|$k:?" if $k !~ /^S:/ || $n !~ /^-?\d+$/ || $tag =~ /D:\?|\@$/;
    return "0|$k:T$tag+$n";
}

# A load: $addr is the abstract value of the address (base + offset
# already applied when known), $ok says the address registers were public
# (else a leak has already been reported and the result is secret),
# $sym is true for symbol/PC-relative addresses.
sub load {
    my ($st, $addr, $sym, $size) = @_;
    # The module's own data (constants, literal pools, the GOT, non-lazy
    # pointers) is public, and what it holds may be the address of other
    # public data (the capability word): a public pointer.
    return '0|A:=sym:?' if $sym;
    return '1|' if taint($addr);
    my $o = origin($addr);
    if ($o =~ /^S:([^:]+):(.*)$/) {
        my ($f, $off) = ($1, $2);
        my $w = $st->{"w:$f"} // '0|';
        if ($off ne '?') {
            # A slot at a known offset: what was stored there.  Stores at
            # unknown offsets (the frame's arrays) are assumed not to hit
            # it: that would be an overflow of a frame array onto a spill
            # slot (docs/constant-time.md, limits).
            my $v = $st->{"m:$f:$off"} // '0|';
            my ($tb, $tn) = $off =~ /^(T.*)\+(-?\d+)$/ ? ($1, $2) : ('', $off);
            # a wide load also covers the slots it overlaps
            for my $k (grep { /^m:\Q$f\E:/ } keys %$st) {
                my ($sb, $so) = $k =~ /^m:\Q$f\E:(T.*)\+(-?\d+)$/ ? ($1, $2) : ('', ($k =~ /:(-?\d+)$/)[0]);
                next unless defined $so && $sb eq $tb;
                $v = val_join($v, tval($st->{$k})) if $so != $tn && $so > $tn - 4 && $so < $tn + ($size || 4);
            }
            return $v;
        }
        my $v = $w;
        $v = val_join($v, $st->{$_}) for grep { /^m:\Q$f\E:/ } keys %$st;
        return val_join($v, '0|');
    }
    if ($o =~ /^A:([^:]+):(.*)$/) {
        my ($arg, $off) = ($1, $2);
        return '0|A:=sym:?' if $arg eq '=sym';  # the module's constants, the capability word
        my $a = $CUR_SPEC->{argkind}{$arg} // 'ptr';
        return '0|' if $a eq 'ptr:public';
        if ($off ne '?') {
            for my $r (@{ $CUR_SPEC->{public}{$arg} || [] }) {
                return '0|' if $off >= $r->[0] && $off + ($size || 1) <= $r->[1];
            }
        }
    }
    return '1|';
}

sub store {
    my ($st, $addr, $val, $size) = @_;
    return if taint($addr);
    my $o = origin($addr);
    return unless $o =~ /^S:([^:]+):(.*)$/;
    my ($f, $off) = ($1, $2);
    if ($off eq '?') {
        $st->{"w:$f"} = val_join($st->{"w:$f"} // '0|', $val);
        return;
    }
    $size ||= 8;
    # a wide (vector) store: one slot per 8 bytes
    my ($tb, $tn) = $off =~ /^(T.*)\+(-?\d+)$/ ? ("$1+", $2) : ('', $off);
    for (my $b = 0; $b < $size; $b += 4) {         # 4-byte slots
        $st->{"m:$f:$tb" . ($tn + $b)} = $b ? tval($val) : $val;
    }
}

# ---------------------------------------------------------------------------
# The analysis of one entry.
# ---------------------------------------------------------------------------
sub spec_for {
    my ($e) = @_;
    $e =~ s/^_(?=[a-z])// unless exists(($SPEC->{$arch} || {})->{$e}) || exists $SPEC->{common}{$e};   # Mach-O/COFF underscore
    my $tab = $SPEC->{$arch} || {};
    return $tab->{$e} if exists $tab->{$e};
    for my $al (@{ $SPEC->{aliases} || [] }) {
        my ($re, $to) = @$al;
        return $tab->{$to} if $e =~ $re && exists $tab->{$to};
    }
    return $SPEC->{common}{$e} if exists $SPEC->{common}{$e};
    for my $al (@{ $SPEC->{aliases} || [] }) {
        my ($re, $to) = @$al;
        return $SPEC->{common}{$to} if $e =~ $re && exists $SPEC->{common}{$to};
    }
    return undef;
}

sub check_entry {
    my ($file, $insns, $labels, $entry) = @_;
    my $spec = spec_for($entry);
    return ('ERROR', "no spec for exported entry '$entry' (add it to tools/ct-static-spec.pl)") unless $spec;
    return ('ok', "exempt: $spec->{exempt}") if $spec->{exempt};
    my %argkind;
    my @args;
    for my $a (@{ $spec->{args} }) {
        my ($name, $kind) = split /:/, $a, 2;
        $kind //= 'ptr';
        $argkind{$name} = $kind;
        push @args, [$name, $kind];
    }
    local $CUR_SPEC = { argkind => \%argkind, public => $spec->{public} || {} };
    local @LEAKS;
    local @ERRORS;

    my %leader;
    $leader{$_} = 1 for values %$labels;
    my $init = CT::Arch::init(\@args, $abi);
    my $start = $labels->{$entry};
    return ('ERROR', "exported '$entry' has no label in the text") unless defined $start;
    my (%in, @work, %queued);
    my $push = sub {
        my ($ctx, $i, $st) = @_;
        my $key = "$ctx;$i";
        if (!exists $in{$key}) { $in{$key} = { %$st } }
        elsif (!state_join($in{$key}, $st)) { return }
        push @work, $key unless $queued{$key}++;
    };
    $push->('', $start, $init);
    my $steps = 0;
    my %exits;
    while (@work) {
        my $key = shift @work;
        delete $queued{$key};
        my ($ctx, $i) = split /;/, $key;
        my $st = { %{ $in{$key} } };
        while (1) {
            if ($i > $#$insns) { error('falls off the end of the text'); last }
            if (++$steps > 2_000_000) { error('analysis does not converge'); last }
            local $CUR_I = $i;
            my $in = $insns->[$i];
            if ($ENV{CT_TRACE} && $ENV{CT_TRACE} == $in->{line}) {     # debugging aid
                print STDERR "state at line $in->{line} '$in->{text}' (ctx '$ctx'):\n",
                    map { "  $_ = $st->{$_}\n" } grep { !/^d:/ } sort keys %$st;
            }
            if ($in->{data}) { error('data directive on an execution path (an encoded instruction?)'); last }
            my $flow = CT::Arch::step($in->{parsed}, $st, $in->{text});
            my $kind = $flow->{kind};
            my $next = $i + 1;                  # where a call returns / a not-taken branch goes
            if ($flow->{delay} && $in->{noreorder} && $kind ne 'fall') {
                # MIPS delay slot: the next instruction runs before the transfer
                # (a "likely" branch annuls it when not taken)
                my $pre = { %$st };
                local $CUR_I = $i + 1;
                if ($insns->[$i + 1]{data}) { error('data directive in a delay slot'); last }
                my $d = CT::Arch::step($insns->[$i + 1]{parsed}, $st, $insns->[$i + 1]{text});
                error('control transfer in a delay slot') if $d->{kind} ne 'fall';
                $flow->{fallstate} = $pre if $flow->{likely};
                $next = $i + 2;
            }
            my @succ;               # [ctx, index, state]
            my $target = sub {
                my ($lab) = @_;
                return $labels->{$lab} if defined $lab && exists $labels->{$lab};
                error("branch to unknown label '" . ($lab // '?') . "'");
                return undef;
            };
            if ($kind eq 'fall') {
                $i++;
                if ($leader{$i}) { $push->($ctx, $i, $st); last }
                next;
            } elsif ($kind eq 'jmp' || $kind eq 'cjmp') {
                my $t = $target->($flow->{target});
                $push->($ctx, $t, $st) if defined $t;
                $push->($ctx, $next, $flow->{fallstate} || $st) if $kind eq 'cjmp';
                last;
            } elsif ($kind eq 'call') {
                if (!exists $labels->{ $flow->{target} // '' }) {
                    # a function outside this file: opaque, its results and
                    # every caller-saved register are secret
                    CT::Arch::external_call($st);
                    $push->($ctx, $next, $st);
                    last;
                }
                my $t = $target->($flow->{target});
                if (defined $t) {
                    if (grep { $_ eq $next } split /\./, $ctx) { error('recursive call'); last }
                    $push->($ctx eq '' ? $next : "$ctx.$next", $t, $st);
                }
                last;
            } elsif ($kind eq 'ret' || $kind eq 'cret') {
                # cret: a predicated return (ARM moveq pc, lr) also falls through
                $push->($ctx, $next, $st) if $kind eq 'cret';
                if ($ctx eq '') { $exits{$i} = 1; last }
                my @c = split /\./, $ctx;
                my $site = pop @c;
                $push->(join('.', @c), $site, CT::Arch::after_return($st));
                last;
            } elsif ($kind eq 'stop') {
                last;
            } else {
                error("internal: flow '$kind'");
                last;
            }
        }
    }
    my %seen;
    my @l = grep { !$seen{"$_->[0]/$_->[1]"}++ } @LEAKS;
    my %seen_e;
    my @e = grep { !$seen_e{"$_->[0]/$_->[1]"}++ } @ERRORS;
    my $fmt = sub {
        my ($x) = @_;
        my $in = $insns->[$x->[0]];
        return sprintf "line %d '%s': %s", $in->{line}, $in->{text}, $x->[1];
    };
    if (@e) {
        my @m = map { $fmt->($_) } @e[0 .. ($#e < 2 ? $#e : 2)];
        return ('ERROR', scalar(@e) . " error(s): " . join('; ', @m));
    }
    if (@l) {
        my $n = $verbose ? $#l : ($#l < 2 ? $#l : 2);
        my @m = map { $fmt->($_) } @l[0 .. $n];
        return ('LEAK', scalar(@l) . " leak(s): " . join('; ', @m));
    }
    my $nstates = keys %in;
    return ('ok', $verbose ? "$nstates block states, $steps steps" : '');
}
