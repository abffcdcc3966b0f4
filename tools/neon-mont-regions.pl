#!/usr/bin/env perl
#
# tools/neon-mont-regions.pl - cut the NEON Montgomery loops out of our
# generated assembly or out of an ARM object (OpenSSL's, disassembled at run
# time), or turn a qemu single-step trace of one call into an instruction
# stream, as assembler text that llvm-mca takes.  Helper of
# tools/neon-mont-mca.sh, which says how the figures are used.
#
#   perl tools/neon-mont-regions.pl [options] asm FILE.s REGION inner|outer
#   perl tools/neon-mont-regions.pl [options] obj FILE.o SYMBOL inner|outer|full
#   perl tools/neon-mont-regions.pl [options] trace BINARY LOG ENTRY CALLER
#
#   --cross PREFIX   binutils prefix (default arm-linux-gnueabihf-)
#   --vmlal N        `obj`: the inner loop is the one loop of SYMBOL with
#                    exactly N vmlal.u32; `asm`: the loop around the marked
#                    REGION must have N.  Either way the tool dies otherwise.
#   --a9             rewrite for llvm-mca-19's Cortex-A9 model (see a9_fix)
#   --it-slot        with --a9: an IT becomes `mov.w r0, #0` (keeps its issue
#                    slot; dies if r0 is used) instead of being dropped
#
# Loops are found by structure: a loop is a backward branch and its target.
# "inner" is the innermost loop (with its back branch, so llvm-mca iterates
# it as the core would); "outer" is the innermost loop around it minus the
# inner loop, with every branch dropped (and the unreachable padding after
# an unconditional one), i.e. the work of one outer iteration outside the
# inner loop; "full" is the whole function, for a reassembly check.  The
# first output line is a comment "@ insns=N vmlal=M".
#
# `trace`: LOG is `qemu-arm -singlestep -d exec,nochain` of BINARY; the
# stream is every executed instruction from the first entry into ENTRY up
# to the first return into CALLER, branches dropped (llvm-mca models no
# branch; the trace is the taken path).
use strict;
use warnings;
use Getopt::Long;

my %o = (cross => 'arm-linux-gnueabihf-', vmlal => 0, a9 => 0, 'it-slot' => 0);
GetOptions(\%o, 'cross=s', 'vmlal=i', 'a9', 'it-slot')
    or die "neon-mont-regions.pl: bad options\n";
my $mode = shift @ARGV // '';
my $COND = qr/eq|ne|cs|cc|hs|lo|mi|pl|vs|vc|hi|ls|ge|lt|gt|le/;

# ---- reading -----------------------------------------------------------------
# An instruction: { m => mnemonic, ops => operands, at => address or line,
# label => name when something branches here, target => label it branches to }.

sub run_lines {
    my @cmd = @_;
    open my $fh, '-|', @cmd or die "@cmd: $!\n";
    my @l = <$fh>;
    close $fh or die "@cmd failed\n";
    return @l;
}

# Function symbols of an ELF file: name -> [address, size, thumb].
sub elf_functions {
    my ($file) = @_;
    my %f;
    for (run_lines("$o{cross}readelf", '-sW', $file)) {
        my @c = split;
        next unless @c >= 8 && $c[3] eq 'FUNC';
        my $v = hex $c[1];
        $f{$c[7]} = [$v & ~1, $c[2] =~ /^0x/ ? hex $c[2] : $c[2], $v & 1];
    }
    return \%f;
}

# objdump -d of FILE: address -> [mnemonic, operands] (comments removed).
sub disassembly {
    my ($file) = @_;
    my %ins;
    for (run_lines("$o{cross}objdump", '-d', $file)) {
        next unless /^\s*([0-9a-f]+):\t[0-9a-f ]+\t(\S+)(?:\t(.*?))?\s*$/;
        my ($at, $m, $ops) = (hex $1, $2, $3 // '');
        $ops =~ s/\s*[@;].*$//;
        $ins{$at} = [$m, $ops];
    }
    return \%ins;
}

sub is_branch { return $_[0]{m} =~ /^(b|bl|blx|bx|cbn?z)($COND)?(\.[nw])?$/ }

# Spell out what llvm-mc needs spelt out in objdump's text.
sub fix_text {
    my ($m, $ops) = @_;
    my %num = (sl => 10, fp => 11, ip => 12);
    my @name = (map({ "r$_" } 0 .. 9), qw(sl fp ip sp lr));
    if ($m =~ /^(ldrd|strd)/ && $ops =~ /^(r\d+|sl|fp|ip),\s*\[/) {
        my $r = $num{$1} // substr($1, 1);          # ARM objdump leaves Rt2 implied
        $ops =~ s/^(\w+),/$1, $name[$r + 1],/;
    }
    $m =~ s/^(sbcs|adcs)\.w$/$1/ if $ops =~ /#/;    # same encoding, llvm-mc rejects .w
    return ($m, $ops);
}

# The instructions of SYMBOL in an object, branch targets turned into labels.
sub function_code {
    my ($file, $sym) = @_;
    my $f = elf_functions($file)->{$sym} or die "$file: no function $sym\n";
    my ($lo, $size, $thumb) = @$f;
    my $dis = disassembly($file);
    my @code;
    for my $at (sort { $a <=> $b } grep { $_ >= $lo && $_ < $lo + $size } keys %$dis) {
        my ($m, $ops) = fix_text(@{ $dis->{$at} });
        die sprintf("%s: data (%s) inside %s at %x\n", $file, $m, $sym, $at) if $m =~ /^\./;
        my $i = { m => $m, ops => $ops, at => $at };
        if (is_branch($i) && $ops =~ s/^([0-9a-f]+) <[^>]*>$/sprintf('.L%x', hex $1)/e) {
            $i->{target} = $i->{ops} = $ops;
        }
        push @code, $i;
    }
    my %is_target = map { defined $_->{target} ? ($_->{target} => 1) : () } @code;
    for (@code) {
        my $l = sprintf '.L%x', $_->{at};
        $_->{label} = $l if $is_target{$l};
    }
    return (\@code, $thumb);
}

# Our preprocessed .s: the instructions, the mode directives before REGION's
# marker, and the index of REGION's first instruction.
sub asm_code {
    my ($file, $region) = @_;
    open my $fh, '<', $file or die "$file: $!\n";
    my (@code, @modes, $anchor, $label);
    while (my $l = <$fh>) {
        $l =~ s/\s*@.*$//s unless $l =~ /LLVM-MCA/;
        if ($l =~ /^\s*[#@]\s*LLVM-MCA-BEGIN\s+(\S+)/) { $anchor = @code if $1 eq $region; next }
        if ($l =~ /^\s*(\.L\w+):\s*$/) { $label = $1; next }
        if ($l =~ /^\s*\.(syntax|arm|thumb|code|fpu|arch)\b/) { push @modes, $l unless defined $anchor; next }
        next unless $l =~ /^\s+([a-z]\S*)\s*(.*?)\s*$/;
        my $i = { m => $1, ops => $2, at => $. };
        $i->{label} = $label if defined $label;
        undef $label;
        $i->{target} = $i->{ops} if is_branch($i) && $i->{ops} =~ /^\.L\w+$/;
        push @code, $i;
    }
    die "$file: no region $region\n" unless defined $anchor;
    chomp @modes;
    return (\@code, \@modes, $anchor);
}

# ---- loops -------------------------------------------------------------------

# Every backward branch: [first index, last index (the branch)].
sub loops {
    my ($code) = @_;
    my %at = map { defined $code->[$_]{label} ? ($code->[$_]{label} => $_) : () } 0 .. $#$code;
    my @l;
    for my $e (0 .. $#$code) {
        my $t = $code->[$e]{target};
        push @l, [$at{$t}, $e] if defined $t && defined $at{$t} && $at{$t} <= $e;
    }
    return @l;
}

sub count_vmlal { return scalar grep { $_->{m} eq 'vmlal.u32' } @_ }

sub inner_loop {
    my ($code, $anchor) = @_;
    my @l = loops($code);
    my @c = defined $anchor
        ? grep { $_->[0] <= $anchor && $anchor <= $_->[1] } @l
        : grep { count_vmlal(@$code[$_->[0] .. $_->[1]]) == $o{vmlal} } @l;
    @c = sort { ($a->[1] - $a->[0]) <=> ($b->[1] - $b->[0]) } @c;
    die "no loop with $o{vmlal} vmlal.u32: not the code this tool was written for\n" unless @c;
    die "several loops with $o{vmlal} vmlal.u32: ambiguous\n" if !defined $anchor && @c > 1;
    my $n = count_vmlal(@$code[$c[0][0] .. $c[0][1]]);
    die "the inner loop has $n vmlal.u32, expected $o{vmlal}\n" if $o{vmlal} && $n != $o{vmlal};
    return $c[0];
}

sub outer_loop {
    my ($code, $in) = @_;
    my @c = sort { ($a->[1] - $a->[0]) <=> ($b->[1] - $b->[0]) }
            grep { $_->[0] < $in->[0] && $in->[1] < $_->[1] } loops($code);
    die "no loop around the inner loop\n" unless @c;
    return $c[0];
}

# Drop the branches of a straight-line piece: an IT block loses the slot of
# its branch (always its last); unless the piece is a trace, the padding
# after an unconditional branch, up to the next label, goes too.
sub drop_branches {
    my ($code, $is_trace) = @_;
    my (@out, $it, $dead);
    for my $i (@$code) {
        $dead = 0 if defined $i->{label};
        next if $dead;
        if ($i->{m} =~ /^it([te]*)$/) { $it = { i => {%$i}, left => 1 + length $1 }; push @out, $it->{i}; next }
        my $in_it = $it && $it->{left}-- > 0;
        if (is_branch($i)) {
            if ($in_it) {
                $it->{i}{m} =~ s/.$// ;               # 'itt' -> 'it', 'it' -> ''
                @out = grep { $_ != $it->{i} } @out if $it->{i}{m} eq 'i';
            }
            $dead = !$is_trace && !$in_it && $i->{m} =~ /^b(\.[nw])?$/;
            next;
        }
        push @out, $i;
    }
    return \@out;
}

# ---- the Cortex-A9 rewrite ------------------------------------------------------
# llvm-mca-19's A9 model has no scheduling class for Thumb-2 IT or for
# ldm/stm/push/pop/vpush/vpop/vldm/vstm.  Approximation: IT dropped (or a
# `mov.w r0, #0` in its slot) and its instructions unconditional; a GPR
# list becomes ldrd/strd per consecutive even/odd pair, else ldr/str, and
# one add/sub for the writeback; a d-register list vld1.64/vst1.64 of up to
# four registers.

sub reg_list {
    my ($l) = @_;
    return map { /^([rd])(\d+)-[rd](\d+)$/ ? map({ "$1$_" } $2 .. $3) : $_ } split /\s*,\s*/, $l;
}

sub reg_num {
    my ($r) = @_;
    my %n = (sl => 10, fp => 11, ip => 12, sp => 13, lr => 14, pc => 15);
    return $n{$r} // ($r =~ /^r(\d+)$/ ? $1 : die "register $r?\n");
}

sub expand_multiple {
    my ($m, $ops) = @_;
    my ($base, $wb, $list, $ld, $db);
    if ($m =~ /^(v?push|v?pop)$/) {
        ($base, $wb, $list) = ('sp', 1, $ops =~ /\{(.*)\}/);
        ($ld, $db) = (scalar($m =~ /pop/), scalar($m =~ /push/));
    } elsif ($m =~ /^v?(ldm|stm)(ia|db)?(\.w)?$/) {
        ($ld, $db) = ($1 eq 'ldm', ($2 // '') eq 'db');
        ($base, $wb, $list) = $ops =~ /^(\w+)(!?),\s*\{(.*)\}/ or die "$m $ops?\n";
    } else {
        return;
    }
    my @r = reg_list($list);
    my $bytes = ($r[0] =~ /^d/ ? 8 : 4) * @r;
    my @out;
    push @out, ['sub', "$base, $base, #$bytes"] if $db && $wb;
    my $off = $db && !$wb ? -$bytes : 0;
    while (@r) {
        if ($r[0] =~ /^d/) {
            push @out, [$ld ? 'vld1.64' : 'vst1.64', '{' . join(', ', splice @r, 0, 4) . "}, [$base]"];
        } elsif (@r > 1 && reg_num($r[0]) % 2 == 0 && reg_num($r[1]) == reg_num($r[0]) + 1 && reg_num($r[0]) < 14) {
            push @out, [$ld ? 'ldrd' : 'strd', join(', ', splice(@r, 0, 2)) . ", [$base, #$off]"];
            $off += 8;
        } else {
            push @out, [$ld ? 'ldr' : 'str', shift(@r) . ", [$base, #$off]"];
            $off += 4;
        }
    }
    push @out, ['add', "$base, $base, #$bytes"] if $wb && !$db;
    return @out;
}

sub a9_fix {
    my ($code) = @_;
    if ($o{'it-slot'} && grep { $_->{ops} =~ /\br0\b/ } @$code) {
        die "--it-slot: r0 is used here, a mov to r0 would add a dependency\n";
    }
    my (@out, $left);
    for my $i (@$code) {
        my ($m, $ops) = ($i->{m}, $i->{ops});
        if ($m =~ /^it([te]*)$/) {
            $left = 1 + length $1;
            push @out, ['mov.w', 'r0, #0'] if $o{'it-slot'};
            next;
        }
        if ($left && $left--) {
            my ($base, $w) = $m =~ /^(\w+?)(?:$COND)((?:\.w)?)$/ or die "$m: not conditional inside IT\n";
            $w ||= '.w' if $base =~ /^(add|sub|mov)$/;      # not the flag-setting 16-bit form
            $m = "$base$w";
            $ops = "$1, $1, $2" if $base =~ /^(add|sub)$/ && $ops =~ /^(\w+),\s*(#\S+)$/;
        }
        my @x = expand_multiple($m, $ops);
        push @out, @x ? @x : [$m, $ops];
    }
    return [map { { m => $_->[0], ops => $_->[1] } } @out];
}

# ---- output -------------------------------------------------------------------

sub emit {
    my ($code, $header) = @_;
    $code = a9_fix($code) if $o{a9};
    printf "\@ insns=%d vmlal=%d\n", scalar @$code, count_vmlal(@$code);
    print "$_\n" for @$header;
    print "\t.text\n";
    for (@$code) {
        print "$_->{label}:\n" if defined $_->{label};
        print "\t$_->{m}\t$_->{ops}\n";
    }
}

sub mode_header {
    my ($thumb) = @_;
    return ("\t.arch armv7-a", "\t.syntax unified", $thumb ? "\t.thumb" : "\t.arm", "\t.fpu neon");
}

# The loop pieces: inner with its back branch, outer minus inner, no branches.
sub pieces {
    my ($code, $what, $anchor) = @_;
    my $in = inner_loop($code, $anchor);
    return [@$code[$in->[0] .. $in->[1]]] if $what eq 'inner';
    die "unknown piece '$what'\n" unless $what eq 'outer';
    my $out = outer_loop($code, $in);
    my $rest = [map { @{ drop_branches($_, 0) } }          # the inner loop's exit is reached
                [@$code[$out->[0] .. $in->[0] - 1]], [@$code[$in->[1] + 1 .. $out->[1]]]];
    my ($ni, $no) = (count_vmlal(@$code[$in->[0] .. $in->[1]]), count_vmlal(@$rest));
    die "outer part has $no vmlal.u32, not one step ($ni) as expected\n" unless $no == $ni;
    delete $_->{label} for @$rest;
    return $rest;
}

sub trace_stream {
    my ($bin, $log, $entry, $caller) = @_;
    my $fn = elf_functions($bin);
    my ($e, $c) = map { $fn->{$_} or die "$bin: no function $_\n" } $entry, $caller;
    my $dis = disassembly($bin);
    my @fns = sort { $a->[0] <=> $b->[0] } values %$fn;
    my (@code, $on, %thumb);
    open my $fh, '<', $log or die "$log: $!\n";
    while (<$fh>) {
        next unless /^Trace \d+: \S+ \[[0-9a-f]+\/([0-9a-f]+)\//;
        my $pc = hex $1;
        $on ||= $pc == $e->[0];
        next unless $on;
        last if $pc >= $c->[0] && $pc < $c->[0] + $c->[1];
        my $d = $dis->{$pc} or die sprintf "%s: no instruction at %x\n", $bin, $pc;
        my ($f) = grep { $_->[0] <= $pc && $pc < $_->[0] + $_->[1] } @fns;
        $thumb{$f ? $f->[2] : 'none'} = 1;
        my ($m, $ops) = fix_text(@$d);
        push @code, { m => $m, ops => $ops, at => $pc };
    }
    die "$log: $entry never entered\n" unless @code;
    die "$log: the call runs outside function symbols or in both ARM and Thumb state\n"
        unless keys %thumb == 1 && !$thumb{none};
    my $branches = grep { is_branch($_) } @code;
    my $kept = drop_branches(\@code, 1);
    print STDERR "trace: $entry: ", scalar @$kept, " instructions, $branches branches dropped\n";
    return ($kept, (keys %thumb)[0]);
}

if ($mode eq 'asm' && @ARGV == 3) {
    my ($file, $region, $what) = @ARGV;
    my ($code, $modes, $anchor) = asm_code($file, $region);
    emit(pieces($code, $what, $anchor), $modes);
} elsif ($mode eq 'obj' && @ARGV == 3) {
    my ($file, $sym, $what) = @ARGV;
    my ($code, $thumb) = function_code($file, $sym);
    emit($what eq 'full' ? $code : pieces($code, $what), [mode_header($thumb)]);
} elsif ($mode eq 'trace' && @ARGV == 4) {
    my ($code, $thumb) = trace_stream(@ARGV);
    emit($code, [mode_header($thumb)]);
} else {
    die "usage: $0 [--cross P] [--vmlal N] [--a9 [--it-slot]] asm FILE.s REGION inner|outer\n"
      . "       ... obj FILE.o SYMBOL inner|outer|full\n"
      . "       ... trace BINARY LOG ENTRY CALLER\n";
}
