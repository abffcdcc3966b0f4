# tools/ct-static-mips.pl - MIPS (MIPS I..R6, 32 and 64 bit; o32, n32,
# n64) model for tools/ct-static.pl.  Loaded with `do`; defines package
# CT::Arch.
#
# No flags: branches test registers (beq/bne/bltz/.., R6 compact
# branches), so a branch whose registers are secret is a LEAK.  movn/movz
# and seleqz/selnez are selects (data).  HI and LO are registers.  Under
# `.set noreorder` the instruction after a branch (its delay slot) is
# executed before the transfer; R6 compact branches have none.
# MSA (poly1305-mips.pl's n64 R6 block function): the vector registers
# $w0-$w31 are registers w0-w31 (whole: an element operand $wN[i] is the
# register), the FPU's $fN their low halves (the same register here);
# vector arithmetic is data (its latency does not depend on the values);
# ld.df/st.df move 16 bytes, ldc1/sdc1 8.
use strict;
use warnings;

package CT::Arch;

my %N32 = (a4 => 8, a5 => 9, a6 => 10, a7 => 11, t0 => 12, t1 => 13, t2 => 14, t3 => 15);
my %O32 = (t0 => 8, t1 => 9, t2 => 10, t3 => 11, t4 => 12, t5 => 13, t6 => 14, t7 => 15);
my %COMMON = (zero => 0, at => 1, v0 => 2, v1 => 3, a0 => 4, a1 => 5, a2 => 6, a3 => 7,
    s0 => 16, s1 => 17, s2 => 18, s3 => 19, s4 => 20, s5 => 21, s6 => 22, s7 => 23,
    t8 => 24, t9 => 25, k0 => 26, k1 => 27, gp => 28, sp => 29, fp => 30, s8 => 30, ra => 31);
our $ABI = 'o32';

sub default_abi { return 'o32' }

sub strip_comment { return CT::strip_comment($_[0], '#') }

sub reg {
    my ($r) = @_;
    return undef unless $r =~ s/^\$//;
    return "r$r" if $r =~ /^\d+$/ && $r < 32;
    return "w$1" if $r =~ /^[wf](\d+)$/ && $1 < 32;        # MSA / FPU
    return 'r' . $COMMON{$r} if exists $COMMON{$r};
    my $m = $ABI eq 'o32' ? \%O32 : \%N32;
    return 'r' . $m->{$r} if exists $m->{$r};
    return undef;
}

sub parse_op {
    my ($o) = @_;
    $o =~ s/^\s+|\s+$//g;
    my %op = (text => $o);
    if ($o =~ /^(.*)\((\$\w+)\)$/) {
        my ($d, $b) = ($1, $2);
        @op{qw(t base)} = ('mem', reg($b) // return { bad => "base $b" });
        $d =~ s/\s+//g;
        $op{disp} = $d eq '' ? 0 : $d =~ /^[-+]?\d+$/ ? int($d) : $d =~ /^[-+]?0x[0-9a-f]+$/i ? hex($d) : undef;
        $op{symrel} = 1 if $d =~ /%(lo|got|call|gp_rel|got_disp|got_ofst|pcrel_lo)/;
        return \%op;
    }
    if ($o =~ /^\$L/) { @op{qw(t name)} = ('sym', $o); return \%op }          # gcc's local labels
    if ($o =~ /^(\$w\d+)\[\d+\]$/) { my $r = reg($1) // return { bad => "register $o" }; @op{qw(t reg)} = ('reg', $r); return \%op }
    if ($o =~ /^\$/) { my $r = reg($o) // return { bad => "register $o" }; @op{qw(t reg)} = ('reg', $r); return \%op }
    if ($o =~ /^[-+]?(0x[0-9a-fA-F]+|\d+)$/) { @op{qw(t val)} = ('imm', $o =~ /0x/i ? hex($o) : int($o)); return \%op }
    # symbols and constant expressions (cpp leaves e.g. "1&31" for the assembler)
    if ($o =~ /^[-+(%~\w.\$][\w.\$+\-*()%<>&|^~\s]*$/) { @op{qw(t name)} = ('sym', $o); return \%op }
    return { bad => "operand '$o'" };
}

sub parse {
    my ($text) = @_;
    my ($mn, $rest) = $text =~ /^(\S+)\s*(.*)$/;
    my @ops = map { parse_op($_) } grep { /\S/ } split /,(?![^(]*\))/, $rest;
    return { mn => lc $mn, ops => \@ops };
}

sub rv {
    my ($st, $op) = @_;
    return '0|' unless $op && $op->{t} eq 'reg';
    return '0|' if $op->{reg} eq 'r0';
    return $st->{ $op->{reg} } // '0|';
}
sub setr {
    my ($st, $r, $v) = @_;
    return if $r eq 'r0';
    $st->{$r} = $v;
    $st->{"d:$r"} = "0|D:$main::CUR_I";
}

sub init {
    my ($args, $abi) = @_;
    $ABI = $abi;
    # o32: $a0..$a3, the 5th argument at 16($sp) (four home slots below
    # it); n32/n64: $a0..$a7, then 8-byte slots from 0($sp)
    return $abi eq 'o32'
        ? CT::entry_state($args, [map { "r$_" } 4 .. 7], 16, 4, r29 => '0|S:0:0')
        : CT::entry_state($args, [map { "r$_" } 4 .. 11], 0, 8, r29 => '0|S:0:0');
}
sub data_insn { return undef }
sub after_return { return $_[0] }
sub external_call {
    my ($st) = @_;
    $st->{"r$_"} = '1|' for 1 .. 15, 24, 25, 31;
    $st->{$_} = '1|' for qw(hi lo);
}

sub maddr {
    my ($st, $m) = @_;
    my $b = $m->{base} eq 'r0' ? '0|' : $st->{ $m->{base} } // '0|';
    if (main::taint($b)) { main::leak("secret base register in address $m->{text}"); return '1|' }
    return '0|A:=sym:?' if $m->{symrel} || $m->{base} eq 'r28';
    return main::offset_ptr($b, $m->{disp});
}

my %BR2 = map { $_ => 1 } qw(beq bne beql bnel beqc bnec bltc bgec bltuc bgeuc);
my %BR1 = map { $_ => 1 } qw(beqz bnez bltz bgez blez bgtz beqzl bnezl bltzl bgezl blezl bgtzl
    beqzc bnezc bltzc bgezc blezc bgtzc bltzal bgezal);
my %LOAD = (lb => 1, lbu => 1, lh => 2, lhu => 2, lw => 4, lwu => 4, ld => 8, ll => 4, lld => 8,
            lwl => 4, lwr => 4, ldl => 8, ldr => 8);
my %STORE = (sb => 1, sh => 2, sw => 4, sd => 8, sc => 4, scd => 8, swl => 4, swr => 4, sdl => 8, sdr => 8);
# MSA and FPU loads and stores: ld.b/h/w/d and st.b/h/w/d move a whole vector
$LOAD{$_} = 16 for qw(ld.b ld.h ld.w ld.d);
$STORE{$_} = 16 for qw(st.b st.h st.w st.d);
$LOAD{ldc1} = 8; $STORE{sdc1} = 8;
# MSA data operations: the destination from its sources (and itself where
# it accumulates or keeps elements: dpadd, insert)
my $MSA_ACC = qr/^(dpadd_[su]\.[hwd]|dpsub_[su]\.[hwd]|maddv\.[bhwd]|msubv\.[bhwd]|insert\.[bhwd]|insve\.[bhwd]|binsli\.[bhwd]|binsri\.[bhwd])$/;
my $MSA_OP = qr/^(dotp_[su]\.[hwd]|addv\.[bhwd]|subv\.[bhwd]|mulv\.[bhwd]|addvi\.[bhwd]|subvi\.[bhwd]|and\.v|or\.v|xor\.v|nor\.v|andi\.b|ori\.b|
    ilvev\.[bhwd]|ilvod\.[bhwd]|ilvl\.[bhwd]|ilvr\.[bhwd]|pckev\.[bhwd]|pckod\.[bhwd]|splati\.[bhwd]|
    slli\.[bhwd]|srli\.[bhwd]|srai\.[bhwd]|sll\.[bhwd]|srl\.[bhwd]|sra\.[bhwd]|move\.v|fill\.[bhwd]|copy_[su]\.[bhwd])$/x;
my $ALU3 = qr/^(addu|add|daddu|dadd|subu|sub|dsubu|dsub|and|or|xor|nor|slt|sltu|sllv|srlv|srav|dsllv|dsrlv|dsrav|rotrv|drotrv|
    mul|muh|mulu|muhu|dmul|dmuh|dmulu|dmuhu|seleqz|selnez|lsa|dlsa)$/x;
my $ALUI = qr/^(addiu|addi|daddiu|daddi|andi|ori|xori|slti|sltiu|sll|srl|sra|dsll|dsrl|dsra|dsll32|dsrl32|dsra32|rotr|drotr|
    ext|dext|dextu|dextm|aui|daui|dahi|dati)$/x;

sub step {
    my ($p, $st, $text) = @_;
    my ($mn, @o) = ($p->{mn}, @{ $p->{ops} });
    for (@o) { if ($_->{bad}) { main::error("cannot parse $_->{bad}"); return { kind => 'stop' } } }
    return { kind => 'fall' } if $mn =~ /^(nop|ssnop|ehb|sync|pause|pref)$/;
    return { kind => 'stop' } if $mn =~ /^(break|teq|sdbbp)$/ && !@o || $mn eq 'break';
    my $compact = $mn =~ /c$/ && $mn =~ /^(b|j)/;

    # branches and jumps
    if (($mn eq 'b' || $mn eq 'j' || $mn eq 'bc') && $o[0]{t} eq 'sym') { return { kind => 'jmp', target => $o[0]{name}, delay => !$compact } }
    if ($BR2{$mn}) {
        main::leak("$mn on a secret register") if main::taint(main::tval(rv($st, $o[0]), rv($st, $o[1])));
        return { kind => 'cjmp', target => $o[2]{name}, delay => !$compact, likely => ($mn =~ /l$/ ? 1 : 0) };
    }
    if ($BR1{$mn}) {
        main::leak("$mn on a secret register") if main::taint(rv($st, $o[0]));
        setr($st, 'r31', '0|') if $mn =~ /al$/;
        return { kind => 'cjmp', target => $o[1]{name}, delay => !$compact, likely => ($mn =~ /l$/ ? 1 : 0) };
    }
    if ($mn eq 'bal' || $mn eq 'jal' || $mn eq 'balc') {
        setr($st, 'r31', '0|');
        return { kind => 'call', target => $o[-1]{name}, delay => $mn ne 'balc' };
    }
    if (($mn eq 'j' && $o[0]{t} eq 'reg') || $mn eq 'jr' || $mn eq 'jr.hb' || $mn eq 'jrc' || $mn eq 'jic') {
        if ($o[0]{reg} eq 'r31') { return { kind => 'ret', delay => ($mn =~ /^jr?$/ ? 1 : 0) } }
        main::leak("indirect $mn through a secret register") if main::taint(rv($st, $o[0]));
        main::error("indirect $mn (the checker cannot follow it)");
        return { kind => 'stop' };
    }
    if (($mn eq 'jalr' || $mn eq 'jalrc') && main::origin(rv($st, $o[-1])) eq 'A:=sym:?') {
        # PIC call through the GOT (%call16): a function outside this file
        return { kind => 'call', target => '<external>', delay => $mn eq 'jalr' ? 1 : 0 };
    }
    if ($mn eq 'jalr' || $mn eq 'jalrc' || $mn eq 'jialc') {
        main::leak("indirect $mn through a secret register") if main::taint(rv($st, $o[-1]));
        main::error("indirect $mn (the checker cannot follow it)");
        return { kind => 'stop' };
    }

    # memory
    if ($LOAD{$mn}) {
        my $m = $o[1];
        if ($m->{t} eq 'sym') { setr($st, $o[0]{reg}, '0|'); return { kind => 'fall' } }
        return unknown("$mn operands") unless $m->{t} eq 'mem';
        if ($m->{symrel}) { setr($st, $o[0]{reg}, '0|A:=sym:?'); return { kind => 'fall' } }   # GOT / %lo: an address
        my $v = main::load($st, maddr($st, $m), 0, $LOAD{$mn});
        $v = main::tval($v, rv($st, $o[0])) if $mn =~ /^l[wd][lr]$/;      # unaligned halves merge
        setr($st, $o[0]{reg}, $v);
        return { kind => 'fall' };
    }
    if ($STORE{$mn}) {
        my $m = $o[1];
        return unknown("$mn operands") unless $m->{t} eq 'mem';
        main::store($st, maddr($st, $m), rv($st, $o[0]), $STORE{$mn});
        setr($st, $o[0]{reg}, '0|') if $mn =~ /^scd?$/;
        return { kind => 'fall' };
    }

    # data
    my $d = $o[0];
    # an address: la/dla, and R6's PC-relative auipc/aluipc/addiupc/lapc
    if ($mn =~ /^(d?la|auipc|aluipc|addiupc|lapc)$/) { setr($st, $d->{reg}, '0|A:=sym:?'); return { kind => 'fall' } }
    if ($mn eq 'li' || $mn eq 'dli' || $mn eq 'lui') { setr($st, $d->{reg}, '0|'); return { kind => 'fall' } }
    if ($mn eq 'move') { setr($st, $d->{reg}, rv($st, $o[1])); return { kind => 'fall' } }
    if ($mn =~ /^(negu|dnegu|not|clz|dclz|clo|wsbh|dsbh|dshd|seb|seh|bitswap|dbitswap)$/) {
        setr($st, $d->{reg}, main::tval(rv($st, $o[1])));
        return { kind => 'fall' };
    }
    if ($mn =~ /^(movn|movz)$/) {
        setr($st, $d->{reg}, main::tval(rv($st, $o[1]), rv($st, $o[2]), rv($st, $d)));
        return { kind => 'fall' };
    }
    if ($mn =~ /^(mult|multu|dmult|dmultu|madd|maddu|msub|msubu|div|divu|ddiv|ddivu)$/) {
        my @in = (rv($st, $o[-2]), rv($st, $o[-1]));
        push @in, $st->{hi} // '0|', $st->{lo} // '0|' if $mn =~ /^(madd|maddu|msub|msubu)$/;
        my $v = main::tval(@in);
        main::leak("$mn with a secret operand (variable latency)") if $mn =~ /div/ && main::taint($v);
        $st->{hi} = $v; $st->{lo} = $v;
        return { kind => 'fall' };
    }
    if ($mn eq 'mfhi' || $mn eq 'mflo') { setr($st, $d->{reg}, main::tval($st->{ substr($mn, 2) } // '0|')); return { kind => 'fall' } }
    if ($mn eq 'mthi' || $mn eq 'mtlo') { $st->{ substr($mn, 2) } = main::tval(rv($st, $o[0])); return { kind => 'fall' } }
    if ($mn =~ /^(ins|dins|dinsm|dinsu)$/) { setr($st, $d->{reg}, main::tval(rv($st, $o[1]), rv($st, $d))); return { kind => 'fall' } }
    if ($mn =~ /^ldi\.[bhwd]$/) { setr($st, $d->{reg}, '0|'); return { kind => 'fall' } }
    if ($mn =~ $MSA_ACC || $mn =~ $MSA_OP) {
        my @src = grep { $_->{t} eq 'reg' } @o[1 .. $#o];
        push @src, $d if $mn =~ $MSA_ACC;
        setr($st, $d->{reg}, main::tval(map { rv($st, $_) } @src));
        return { kind => 'fall' };
    }
    if ($mn =~ /^(div|divu|mod|modu|ddiv|ddivu|dmod|dmodu)$/ && @o == 3) {
        my $v = main::tval(rv($st, $o[1]), rv($st, $o[2]));
        main::leak("$mn with a secret operand (variable latency)") if main::taint($v);
        setr($st, $d->{reg}, $v);
        return { kind => 'fall' };
    }
    if ($mn =~ $ALU3 || $mn =~ $ALUI) {
        my @src = @o[1 .. $#o];
        @src = ($o[0], $o[1]) if @o == 2;          # two-operand shorthand: addu rd, rt
        my $v = main::tval(map { rv($st, $_) } @src);
        my $same = @src == 2 && $src[0]{t} eq 'reg' && $src[1]{t} eq 'reg' && $src[0]{reg} eq $src[1]{reg};
        $v = '0|' if $same && $mn =~ /^(xor|subu|dsubu|sub|dsub|slt|sltu)$/;
        if (!main::taint($v)) {
            my @p = grep { $_->{t} eq 'reg' && main::origin(rv($st, $_)) ne '' } @src;
            if ($mn =~ /^(addu|daddu|or)$/ && @src == 2 && grep { $_->{t} eq 'reg' && $_->{reg} eq 'r0' } @src) {
                my ($x) = grep { $_->{reg} ne 'r0' } @src;      # move written as addu/or with $0
                $v = rv($st, $x) if $x;
            } elsif ($mn =~ /^(addiu|daddiu|addi|daddi)$/ && @p && $p[0] == $src[0]) {
                $v = main::offset_ptr(rv($st, $src[0]), $src[1]{t} eq 'imm' ? $src[1]{val} : undef);
            } elsif ($mn =~ /^(addu|daddu|subu|dsubu)$/ && @p == 1) {
                my $b = rv($st, $p[0]);
                my ($x) = grep { $_ != $p[0] } @src;
                if ($d->{reg} eq 'r29' && main::origin($b) =~ /^S:/) { $v = main::new_frame('var', $b) }
                elsif ($mn =~ /^d?addu$/ && main::origin($b) =~ /^S:/ && $x) {
                    $v = main::offset_sym($b, "$x->{reg}\@" . main::origin($st->{"d:$x->{reg}"} // '0|D:E'));
                } else { $v = main::offset_ptr($b, undef) }
            } else { $v = main::tval($v) }
        }
        setr($st, $d->{reg}, $v);
        return { kind => 'fall' };
    }
    return unknown($mn);
}

sub unknown {
    my ($mn) = @_;
    main::error("unknown instruction '$mn'");
    return { kind => 'stop' };
}

1;
