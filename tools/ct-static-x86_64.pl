# tools/ct-static-x86_64.pl - x86_64 (AT&T syntax) model for
# tools/ct-static.pl: operand parsing and the taint transfer of each
# instruction, scalar, BMI2/ADX, SSE, AVX2, AVX-512F/VL and IFMA.
# Loaded with `do` by ct-static.pl; defines package CT::Arch.
#
# Flags are tracked as three groups: f:C (CF), f:O (OF), f:S (ZF, SF,
# PF, AF).  Vector registers are whole registers (xmmN, ymmN, zmmN are
# one value vN); mask registers kN are values like any other.
use strict;
use warnings;

package CT::Arch;

my @GPR = qw(rax rcx rdx rbx rsp rbp rsi rdi r8 r9 r10 r11 r12 r13 r14 r15);
my %REG;            # name -> [canonical, bits]
for my $r (qw(a b c d)) {
    $REG{"r${r}x"} = ["r${r}x", 64]; $REG{"e${r}x"} = ["r${r}x", 32];
    $REG{"${r}x"}  = ["r${r}x", 16]; $REG{"${r}l"}  = ["r${r}x", 8]; $REG{"${r}h"} = ["r${r}x", 8];
}
for my $r (qw(si di bp sp)) {
    $REG{"r$r"} = ["r$r", 64]; $REG{"e$r"} = ["r$r", 32]; $REG{$r} = ["r$r", 16]; $REG{"${r}l"} = ["r$r", 8];
}
for my $n (8 .. 15) {
    $REG{"r$n"} = ["r$n", 64]; $REG{"r${n}d"} = ["r$n", 32]; $REG{"r${n}w"} = ["r$n", 16]; $REG{"r${n}b"} = ["r$n", 8];
}
for my $n (0 .. 31) { $REG{"xmm$n"} = ["v$n", 128]; $REG{"ymm$n"} = ["v$n", 256]; $REG{"zmm$n"} = ["v$n", 512] }
$REG{"k$_"} = ["k$_", 64] for 0 .. 7;

sub default_abi { return 'sysv' }

sub strip_comment { return CT::strip_comment($_[0], '//') }

# ---- parsing ----------------------------------------------------------------
sub split_ops { return CT::split_ops($_[0], '({', ')}') }

sub evalnum {
    my ($e) = @_;
    $e =~ s/\s+//g;
    return 0 if $e eq '';
    return undef unless $e =~ /^[-+*()<>0-9a-fA-Fx]+$/ && $e =~ /^[-+(]*\d/;
    return undef if $e =~ /[a-fA-F]/ && $e !~ /0x/;
    no warnings;
    my $v = eval $e;
    return defined $v ? int($v) : undef;
}

sub parse_op {
    my ($o) = @_;
    my %op = (text => $o);
    while ($o =~ s/\{([^}]*)\}\s*$//) {
        my $d = $1;
        if ($d =~ /^%(k[0-7])$/) { $op{mask} = $1 }
        elsif ($d eq 'z') { $op{zero} = 1 }
        elsif ($d =~ /^1to\d+$/) { $op{bcst} = 1 }
        elsif ($d =~ /sae/) { }
        else { return { bad => "operand decoration {$d}" } }
    }
    $o =~ s/^\s+|\s+$//g;
    if ($o =~ /^\$(.*)$/) { $op{t} = 'imm'; $op{val} = evalnum($1); return \%op }
    if ($o =~ /^\*?%(\w+)$/) {
        my $r = $REG{$1} or return { bad => "register %$1" };
        @op{qw(t reg bits)} = ('reg', @$r);
        $op{star} = 1 if $o =~ /^\*/;
        return \%op;
    }
    if ($o =~ /^\*?(?:%(\w+):)?(.*?)\(\s*(?:%(\w+))?\s*(?:,\s*%(\w+)(?:,\s*(\d+))?)?\s*\)$/) {
        my ($seg, $disp, $b, $x, $sc) = ($1, $2, $3, $4, $5);
        $op{t} = 'mem';
        $op{star} = 1 if $o =~ /^\*/;
        $op{seg} = $seg;
        if (defined $b) {
            return { bad => "base %$b" } unless $b eq 'rip' || $REG{$b};
            $op{base} = $b eq 'rip' ? 'rip' : $REG{$b}[0];
        }
        if (defined $x) {
            my $r = $REG{$x} or return { bad => "index %$x" };
            $op{index} = $r->[0];
            $op{vindex} = 1 if $r->[0] =~ /^v/;
        }
        $op{disp} = evalnum($disp);
        $op{sym} = 1 if ($op{base} // '') eq 'rip' || (!defined $op{disp} && !defined $op{base});
        return \%op;
    }
    if ($o =~ /^\*?[A-Za-z_.][\w.\$+\-*\@]*$/ && $o !~ /%/) {      # symbol: branch target or absolute
        $op{t} = 'sym';
        ($op{name} = $o) =~ s/^\*//;
        $op{name} =~ s/\@\w+$//;
        $op{star} = 1 if $o =~ /^\*/;
        return \%op;
    }
    return { bad => "operand '$o'" };
}

sub parse {
    my ($text) = @_;
    my ($mn, $rest) = $text =~ /^(\S+)\s*(.*)$/;
    my @pfx;
    while ($mn =~ /^(rep|repz|repnz|lock|notrack|bnd|data16)$/ && $rest =~ /^(\S+)\s*(.*)$/) {
        push @pfx, $mn; ($mn, $rest) = ($1, $2);
    }
    my @ops = map { parse_op($_) } split_ops($rest);
    return { mn => $mn, ops => \@ops, pfx => \@pfx };
}

# ---- state access -------------------------------------------------------------
sub rd {            # value of an operand as a source
    my ($st, $op, $size) = @_;
    return '0|' if $op->{t} eq 'imm';
    if ($op->{t} eq 'reg') { return $st->{ $op->{reg} } // '0|' }
    if ($op->{t} eq 'mem') {
        my $a = addr($st, $op);
        return main::load($st, $a, $op->{sym}, $size);
    }
    return '0|';
}

# The address of a memory operand; reports a leak when a register in it is
# secret.  Returns the abstract address value.
sub addr {
    my ($st, $op) = @_;
    return '0|' if $op->{sym};
    my $b = defined $op->{base} ? ($st->{ $op->{base} } // '0|') : '0|';
    my $x = defined $op->{index} ? ($st->{ $op->{index} } // '0|') : '0|';
    if (main::taint($b)) { main::leak("secret base register %$op->{base} in address $op->{text}"); return '1|' }
    if (main::taint($x)) {
        main::leak(($op->{vindex} ? 'secret vector index' : 'secret index register') . " %$op->{index} in address $op->{text}");
        return '1|';
    }
    return '0|' unless defined $op->{base};
    return main::offset_ptr($b, defined $op->{index} ? undef : $op->{disp});
}

sub wr {            # write a value to a register or memory operand
    my ($st, $op, $v, $merge, $size) = @_;
    if ($op->{t} eq 'reg') {
        my $r = $op->{reg};
        # 8/16-bit writes and merge-masked vector writes keep the rest
        $v = main::tval($v, $st->{$r} // '0|') if $merge || ($op->{bits} < 32 && $r !~ /^[vk]/);
        $v = main::tval($v) if $op->{bits} == 32 && $r !~ /^[vk]/ && main::origin($v) ne '';
        $st->{$r} = $v;
        return;
    }
    if ($op->{t} eq 'mem') {
        my $a = addr($st, $op);
        main::store($st, $a, $v, $size // 8);
        return;
    }
    main::error("cannot write operand $op->{text}");
}

sub setflags { my ($st, $v, @f) = @_; $st->{"f:$_"} = main::tval($v) for (@f ? @f : qw(C O S)) }

my %CC = (      # condition -> flag groups read
    o => 'O', no => 'O', b => 'C', c => 'C', nae => 'C', ae => 'C', nb => 'C', nc => 'C',
    e => 'S', z => 'S', ne => 'S', nz => 'S', be => 'CS', na => 'CS', a => 'CS', nbe => 'CS',
    s => 'S', ns => 'S', p => 'S', pe => 'S', np => 'S', po => 'S',
    l => 'SO', nge => 'SO', ge => 'SO', nl => 'SO', le => 'SOS', ng => 'SOS', g => 'SO', nle => 'SO',
);
sub cc_val {
    my ($st, $cc) = @_;
    my $f = $CC{$cc};
    return undef unless defined $f;
    return main::tval(map { $st->{"f:$_"} // '0|' } split //, $f);
}

sub stack_push {
    my ($st, $v) = @_;
    my $sp = main::offset_ptr($st->{rsp}, -8);
    $st->{rsp} = $sp;
    main::store($st, $sp, $v, 8);
}
sub stack_pop {
    my ($st) = @_;
    my $v = main::load($st, $st->{rsp}, 0, 8);
    $st->{rsp} = main::offset_ptr($st->{rsp}, 8);
    return $v;
}

# ---- entry state -----------------------------------------------------------------
sub init {
    my ($args, $abi) = @_;
    my @regs = $abi eq 'win64' ? qw(rcx rdx r8 r9) : qw(rdi rsi rdx rcx r8 r9);
    my $stack0 = $abi eq 'win64' ? 40 : 8;     # first stack argument (after the return address)
    return CT::entry_state($args, \@regs, $stack0, 8, rsp => '0|S:0:0');
}

sub data_insn { return undef }
sub after_return { my ($st) = @_; return $st }

# A call to a function outside the file (only the planted C leaks have
# them): the SysV caller-saved registers, vectors and flags become secret.
sub external_call {
    my ($st) = @_;
    $st->{$_} = '1|' for qw(rax rcx rdx rsi rdi r8 r9 r10 r11 f:C f:O f:S), map { "v$_" } 0 .. 31;
    $st->{rsp} = main::offset_ptr($st->{rsp}, 8);     # the callee has returned
}

# ---- the instructions --------------------------------------------------------------
my %ALU2 = map { $_ => 1 } qw(add sub and or xor adc sbb);
my %SHIFT = map { $_ => 1 } qw(shl shr sar sal rol ror rcl rcr);
my %NOP = map { $_ => 1 } qw(endbr64 nop vzeroupper lfence mfence sfence pause);
my %VMOVE = map { $_ => 1 } qw(movdqa movdqu movaps movups movapd movupd vmovdqa vmovdqu vmovdqa32
    vmovdqa64 vmovdqu8 vmovdqu16 vmovdqu32 vmovdqu64 vmovaps vmovups vmovapd vmovupd movq movd vmovq vmovd
    vmovddup movddup vpbroadcastb vpbroadcastw vpbroadcastd vpbroadcastq vbroadcasti128 vbroadcasti32x4
    vbroadcasti64x2 vbroadcasti64x4 vpmovzxdq vpmovzxbq vpmovzxwd vpmovsxdq vpmovqd vpmovqb vpmovdb);
# vector data ops: the destination (last operand) is an output; it is also an
# input for the accumulating ones, for merge masking and for legacy SSE
# two-operand forms.
my $VDATA = qr/^v?p?(add|sub|mul|mull|mulh|mulhu|mulld|mullq|muludq|muldq|and|andn|or|xor|
    sll|srl|sra|sllv|srlv|srav|slldq|srldq|alignr|unpck[lh](bw|wd|dq|qdq|ps|pd)|shuf(d|hw|lw|ps|pd)|
    blendd|blendw|blendvb|blendm[bwdq]|blendps|blendpd|insr[bwdq]|cmpeq[bwdq]|cmpgt[bwdq]|cmp[bwdq]?|cmpu[bwdq]|
    max[su][bwdq]|min[su][bwdq]|abs[bwdq]|ternlogd|ternlogq|madd52luq|madd52huq|maddwd|maddubsw|
    align[dq]|shufi32x4|shufi64x2|shuff64x2|inserti128|inserti32x4|inserti64x2|inserti64x4|
    extracti128|extracti32x4|extracti64x2|extracti64x4|extr[bwdq]|permq|permd|perm2i128|permi2[bdqw]|
    permt2[bdqw]|permpd|permps|permilps|permilpd|compress[dq]|expand[dq]|test[mn]m[bwdq]|movm2[bwdq]|
    mov[bwdq]2m|ack[su]s[dw][bw]|srldq|slldq|sadbw|avg[bw]|rol[dq]|ror[dq]|rolv[dq]|rorv[dq])(b|w|d|q|dq|ps|pd)?$/x;
my %VACC = map { $_ => 1 } qw(vpmadd52luq vpmadd52huq vpternlogd vpternlogq vpermi2q vpermi2d vpermt2q
    vpermt2d vpermi2b vpermt2b vpermi2w vpermt2w vpdpbusd vpdpwssd);
my %VPERMVAR = map { $_ => 1 } qw(vpermq vpermd vpermi2q vpermi2d vpermt2q vpermt2d vpermi2b vpermt2b
    vpermi2w vpermt2w vpermb vpermw vpermps vpermpd vpermilps vpermilpd vpshufb pshufb);

sub step {
    my ($p, $st, $text) = @_;
    my ($mn, @o) = ($p->{mn}, @{ $p->{ops} });
    for (@o) { if ($_->{bad}) { main::error("cannot parse $_->{bad}"); return { kind => 'stop' } } }
    return { kind => 'fall' } if $NOP{$mn};
    return { kind => 'stop' } if $mn eq 'int3' || $mn eq 'ud2' || $mn eq 'hlt';

    # --- control flow
    if ($mn eq 'jmp') {
        my $t = $o[0];
        if ($t->{star} || $t->{t} ne 'sym') {
            my $v = rd($st, $t);
            main::leak("indirect jump through a secret target") if main::taint($v);
            main::error("indirect jump (the checker cannot follow it)");
            return { kind => 'stop' };
        }
        return { kind => 'jmp', target => $t->{name} };
    }
    if ($mn =~ /^j(\w+)$/ && exists $CC{$1}) {
        main::leak("conditional branch on secret flags") if main::taint(cc_val($st, $1));
        return { kind => 'cjmp', target => $o[0]{name} };
    }
    if ($mn eq 'jrcxz' || $mn eq 'jecxz' || $mn eq 'loop') {
        main::leak("$mn on a secret %rcx") if main::taint($st->{rcx} // '0|');
        $st->{rcx} = main::tval($st->{rcx} // '0|') if $mn eq 'loop';
        return { kind => 'cjmp', target => $o[0]{name} };
    }
    if ($mn eq 'call') {
        my $t = $o[0];
        if ($t->{star} || $t->{t} ne 'sym') {
            main::leak("indirect call through a secret target") if main::taint(rd($st, $t));
            main::error("indirect call (the checker cannot follow it)");
            return { kind => 'stop' };
        }
        stack_push($st, '0|');
        return { kind => 'call', target => $t->{name} };
    }
    if ($mn eq 'ret' || $mn eq 'retq') {
        stack_pop($st);
        return { kind => 'ret' };
    }

    # --- the stack
    if ($mn =~ /^push[qw]?$/) { stack_push($st, rd($st, $o[0])); return { kind => 'fall' } }
    if ($mn =~ /^pop[qw]?$/)  { my $v = stack_pop($st); wr($st, $o[0], $v); return { kind => 'fall' } }

    # strip the AT&T size suffix of scalar mnemonics
    my $base = $mn;
    if ($mn !~ /^v/ && !exists $CC{$mn}) {
        for my $cand ($mn, ($mn =~ /^(.*)[bwlq]$/)) {
            next unless defined $cand;
            if ($ALU2{$cand} || $SHIFT{$cand} || $cand =~ /^(mov|movabs|movz[bw]?[lqw]?|movs[bw]?[lqw]?|movsl|lea|cmp|test|inc|dec|neg|not|mul|imul|div|idiv|xchg|bswap|bt|bts|btr|btc|shld|shrd|andn|shlx|shrx|sarx|rorx|bzhi|cmov\w+|set\w+|cqto|cltq|cltd|cqo|cdqe|cwtl|clc|stc|cmc|mulx|adcx|adox|popcnt|lzcnt|tzcnt|bsf|bsr)$/) {
                $base = $cand;
                last;
            }
        }
    }
    my $n = @o;
    my $dst = $o[-1];

    if ($base eq 'clc' || $base eq 'stc') { $st->{'f:C'} = '0|'; return { kind => 'fall' } }
    if ($base eq 'cmc') { return { kind => 'fall' } }
    if ($base eq 'lea') {
        my $m = $o[0];
        my $v;
        if ($m->{sym}) { $v = '0|' }
        else {
            my $b = defined $m->{base} ? ($st->{ $m->{base} } // '0|') : '0|';
            my $x = defined $m->{index} ? ($st->{ $m->{index} } // '0|') : '0|';
            $v = main::tval($b, $x);
            $v = main::offset_ptr($b, defined $m->{index} ? undef : $m->{disp}) unless main::taint($v) || !defined $m->{base};
            # base + index where the base is not a pointer: no pointer
            $v = main::tval($v) if !defined $m->{base};
        }
        wr($st, $dst, $v);
        return { kind => 'fall' };
    }
    if ($base =~ /^(mov|movabs|movz\w*|movs[bwl]\w*|movsl)$/) {
        my $sz = $base =~ /^mov(abs)?$/ ? size_of($mn, $dst, $o[0]) : 8;
        wr($st, $dst, rd($st, $o[0], $sz), 0, $sz);
        return { kind => 'fall' };
    }
    if ($base =~ /^cmov(\w+)$/) {
        my $cc = $1;
        $cc =~ s/[wlq]$// unless exists $CC{$cc};
        my $c = cc_val($st, $cc) // return unknown($mn);
        wr($st, $dst, main::tval(rd($st, $o[0]), $st->{ $dst->{reg} } // '0|', $c));
        return { kind => 'fall' };
    }
    if ($base =~ /^set(\w+)$/) {
        my $c = cc_val($st, $1) // return unknown($mn);
        wr($st, $dst, $c, 0, 1);
        return { kind => 'fall' };
    }
    if ($ALU2{$base}) {
        my $s = rd($st, $o[0]);
        my $same = $o[0]{t} eq 'reg' && $dst->{t} eq 'reg' && $o[0]{reg} eq $dst->{reg};
        my $v;
        if ($same && ($base eq 'xor' || $base eq 'sub')) { $v = '0|' }
        elsif ($same && $base eq 'sbb') { $v = main::tval($st->{'f:C'} // '0|') }
        else {
            my $d = rd($st, $dst);
            my @in = ($s, $d);
            push @in, $st->{'f:C'} // '0|' if $base eq 'adc' || $base eq 'sbb';
            $v = main::tval(@in);
            # pointer arithmetic with a constant keeps the pointer
            if (!main::taint($v) && ($base eq 'add' || $base eq 'sub') && $o[0]{t} eq 'imm' && defined $o[0]{val} && main::origin($d) ne '') {
                $v = main::offset_ptr($d, $base eq 'add' ? $o[0]{val} : -$o[0]{val});
            } elsif (!main::taint($v) && $base eq 'and' && $dst->{t} eq 'reg' && main::origin($d) =~ /^S:/) {
                $v = main::new_frame("al", $d);        # an aligned stack pointer: a new frame
            } elsif (!main::taint($v) && ($base eq 'add' || $base eq 'sub') && main::origin($d) =~ /^S:/) {
                $v = $dst->{reg} && $dst->{reg} eq 'rsp' ? main::new_frame("var", $d) : main::offset_ptr($d, undef);
            } elsif (!main::taint($v) && $base eq 'add' && main::origin($d) ne '') {
                $v = main::offset_ptr($d, undef);
            } elsif (!main::taint($v) && $base eq 'add' && main::origin($s) ne '' && main::origin($d) eq '') {
                $v = main::offset_ptr($s, undef);
            } else {
                $v = main::tval($v);
            }
        }
        wr($st, $dst, $v) if $base ne 'cmp';
        setflags($st, $v);
        return { kind => 'fall' };
    }
    if ($base eq 'cmp' || $base eq 'test') {
        setflags($st, main::tval(rd($st, $o[0]), rd($st, $o[1])));
        return { kind => 'fall' };
    }
    if ($base =~ /^(inc|dec)$/) {
        my $v = main::tval(rd($st, $dst));
        $v = main::offset_ptr(rd($st, $dst), $base eq 'inc' ? 1 : -1) unless main::taint($v);
        wr($st, $dst, $v);
        setflags($st, $v, 'O', 'S');
        return { kind => 'fall' };
    }
    if ($base eq 'neg' || $base eq 'not') {
        my $v = main::tval(rd($st, $dst));
        wr($st, $dst, $v);
        setflags($st, $v) if $base eq 'neg';
        return { kind => 'fall' };
    }
    if ($SHIFT{$base}) {
        my $cnt = $n == 2 ? rd($st, $o[0]) : '0|';     # shl %cl,%r or shl $k,%r; 1-operand: by 1
        my @in = (rd($st, $dst), $cnt);
        push @in, $st->{'f:C'} // '0|' if $base =~ /^rc/;
        my $v = main::tval(@in);
        wr($st, $dst, $v);
        setflags($st, $v);
        return { kind => 'fall' };
    }
    if ($base =~ /^(shld|shrd)$/) {
        my $v = main::tval(map { rd($st, $_) } @o);
        wr($st, $dst, $v);
        setflags($st, $v);
        return { kind => 'fall' };
    }
    if ($base =~ /^(shlx|shrx|sarx|rorx|bzhi|andn|pdep|pext)$/) {
        my $v = main::tval(map { rd($st, $_) } @o[0 .. $n - 2]);
        wr($st, $dst, $v);
        setflags($st, $v) if $base =~ /^(andn|bzhi)$/;
        return { kind => 'fall' };
    }
    if ($base =~ /^(bt|bts|btr|btc)$/) {
        my $v = main::tval(rd($st, $o[0]), rd($st, $o[1]));
        wr($st, $o[1], $v) if $base ne 'bt';
        $st->{'f:C'} = $v;
        return { kind => 'fall' };
    }
    if ($base =~ /^(popcnt|lzcnt|tzcnt|bsf|bsr)$/) {
        my $v = main::tval(rd($st, $o[0]));
        wr($st, $dst, $v);
        setflags($st, $v);
        return { kind => 'fall' };
    }
    if ($base eq 'mul' || ($base eq 'imul' && $n == 1)) {
        my $v = main::tval(rd($st, $o[0]), $st->{rax} // '0|');
        $st->{rax} = $v; $st->{rdx} = $v;
        setflags($st, $v);
        return { kind => 'fall' };
    }
    if ($base eq 'imul') {
        my $v = main::tval(map { rd($st, $_) } $n == 3 ? @o[0, 1] : @o);
        wr($st, $dst, $v);
        setflags($st, $v);
        return { kind => 'fall' };
    }
    if ($base eq 'div' || $base eq 'idiv') {
        my $v = main::tval(rd($st, $o[0]), $st->{rax} // '0|', $st->{rdx} // '0|');
        main::leak("division with a secret operand (variable latency)") if main::taint($v);
        $st->{rax} = $v; $st->{rdx} = $v;
        setflags($st, $v);
        return { kind => 'fall' };
    }
    if ($base eq 'mulx') {          # mulx src, lo, hi: hi:lo = rdx * src
        my $v = main::tval(rd($st, $o[0]), $st->{rdx} // '0|');
        wr($st, $o[1], $v);
        wr($st, $o[2], $v);
        return { kind => 'fall' };
    }
    if ($base eq 'adcx' || $base eq 'adox') {
        my $f = $base eq 'adcx' ? 'f:C' : 'f:O';
        my $v = main::tval(rd($st, $o[0]), rd($st, $dst), $st->{$f} // '0|');
        wr($st, $dst, $v);
        $st->{$f} = $v;
        return { kind => 'fall' };
    }
    if ($base =~ /^(cqto|cqo|cltd)$/) { $st->{rdx} = main::tval($st->{rax} // '0|'); return { kind => 'fall' } }
    if ($base =~ /^(cltq|cdqe|cwtl)$/) { $st->{rax} = main::tval($st->{rax} // '0|'); return { kind => 'fall' } }
    if ($base eq 'xchg') {
        my ($a, $b) = (rd($st, $o[0]), rd($st, $o[1]));
        wr($st, $o[0], $b); wr($st, $o[1], $a);
        return { kind => 'fall' };
    }
    if ($base eq 'bswap') { wr($st, $dst, main::tval(rd($st, $dst))); return { kind => 'fall' } }

    # --- vector and mask instructions
    return vector($mn, \@o, $st) // unknown($mn);
}

sub size_of {
    my ($mn, @ops) = @_;
    return 1 if $mn =~ /b$/;
    return 2 if $mn =~ /w$/;
    return 4 if $mn =~ /l$/;
    for (@ops) { return $_->{bits} / 8 if $_->{t} eq 'reg' }
    return 8;
}

sub vsize {
    my ($ops) = @_;
    for (reverse @$ops) { return $_->{bits} / 8 if $_->{t} eq 'reg' && $_->{reg} =~ /^v/ }
    return 16;
}

sub unknown {
    my ($mn) = @_;
    main::error("unknown instruction '$mn'");
    return { kind => 'stop' };
}

sub vector {
    my ($mn, $o, $st) = @_;
    my @o = @$o;
    my $n = @o;
    my $dst = $o[-1];
    my $mask = $dst->{mask} ? ($st->{ $dst->{mask} } // '0|') : '0|';
    my $merge = $dst->{mask} && !$dst->{zero};
    my $vs = vsize($o);

    if ($mn =~ /^v?p(gather|scatter)/ || $mn =~ /^vgather|^vscatter/) {
        # AT&T: vpgatherqq (base,vindex,scale), dst{k}  (AVX-512) or
        #       vpgatherqq vmask, (base,vindex,scale), dst (AVX2)
        my ($m) = grep { $_->{t} eq 'mem' } @o;
        return undef unless $m;
        my $k = $m->{mask} ? $st->{ $m->{mask} } : $dst->{mask} ? $st->{ $dst->{mask} } : $n == 3 ? $st->{ $o[0]{reg} } : '0|';
        main::leak("$mn with a secret mask") if main::taint($k // '0|');
        my $a = addr($st, $m);          # reports secret base or vector index
        if ($mn =~ /scatter/) { main::store($st, $a, main::tval($st->{ $o[0]{reg} } // '0|'), 64) }
        else {
            my $v = main::tval(main::load($st, main::offset_ptr($a, undef), 0, 8), $st->{ $dst->{reg} } // '0|');
            $st->{ $dst->{reg} } = $v;
        }
        my $kr = $m->{mask} // $dst->{mask} // ($n == 3 ? $o[0]{reg} : undef);
        $st->{$kr} = '0|' if defined $kr;    # the mask is cleared when it completes
        return { kind => 'fall' };
    }
    if ($VPERMVAR{$mn}) {
        my $idx;
        if ($mn =~ /permi2/) { $idx = $dst }                           # index in the destination
        elsif ($mn =~ /permt2/ || ($mn =~ /^vperm[qd]$|^vpermp[sd]$|^vperm[bw]$/ && $n == 3 && $o[0]{t} ne 'imm')) { $idx = $o[1] }
        elsif ($mn =~ /shufb|permil/ && $n == 3 && $o[0]{t} ne 'imm') { $idx = $o[0] }
        elsif ($mn eq 'pshufb') { $idx = $o[0] }
        if ($idx) {
            my $iv = rd($st, $idx);
            main::leak("$mn with a secret index (a lookup)") if main::taint($iv);
        }
        # fall through: a data op
    }
    if ($mn =~ /^(kmov[bwdq])$/) {
        wr($st, $dst, rd($st, $o[0]), 0, 8);
        return { kind => 'fall' };
    }
    if ($mn =~ /^k(and|andn|or|xor|xnor|not|shiftl|shiftr|add|unpck)[bwdq]+$/) {
        my @src = grep { $_->{t} ne 'imm' } @o[0 .. $n - 2];
        my $same = $mn =~ /^k(xor|andn)/ && @src == 2 && $src[0]{reg} eq $src[1]{reg};
        wr($st, $dst, $same ? '0|' : main::tval(map { rd($st, $_) } @src));
        return { kind => 'fall' };
    }
    if ($mn =~ /^k(or)?test[bwdq]$/ || $mn =~ /^v?p?test$|^vtestp[sd]$|^v?u?comis[sd]$/) {
        setflags($st, main::tval(map { rd($st, $_) } @o));
        return { kind => 'fall' };
    }
    if ($VMOVE{$mn}) {
        my $v = rd($st, $o[0], $dst->{t} eq 'mem' ? vsize([$o[0]]) : 8);
        $v = main::tval($v);
        if ($dst->{t} eq 'mem') { wr($st, $dst, $v, 0, vsize([$o[0]])) }
        else { wr($st, $dst, main::tval($v, $mask), $merge) }
        return { kind => 'fall' };
    }
    if ($mn =~ /^v?pmovmskb$|^v?movmskp[sd]$/) { wr($st, $dst, main::tval(rd($st, $o[0]))); return { kind => 'fall' } }
    my $core = $mn;
    if ($mn =~ $VDATA || $mn =~ /^v?(pinsr[bwdq]|pextr[bwdq]|valign[dq]|vinserti\w+|vextracti\w+)$/) {
        my @src = grep { $_->{t} ne 'imm' } @o[0 .. $n - 2];
        my $zero = @src == 2 && $src[0]{t} eq 'reg' && $src[1]{t} eq 'reg' && $src[0]{reg} eq $src[1]{reg}
                   && $mn =~ /^v?p(xor|sub|andn)[dq]?$|^vpxor[dq]$/;
        my $legacy = $mn !~ /^v/ && $n == 2 || ($mn !~ /^v/ && $n == 3 && $o[0]{t} eq 'imm');
        my @in = $zero ? () : (map { rd($st, $_, 8) } @src);
        push @in, rd($st, $dst) if ($legacy || $VACC{$mn}) && $dst->{t} eq 'reg';
        push @in, $mask;
        my $v = main::tval(@in);
        $v = '0|' if $zero && !$dst->{mask};
        if ($dst->{t} eq 'mem') { wr($st, $dst, $v, 0, 16) }
        else { wr($st, $dst, $v, $merge) }
        return { kind => 'fall' };
    }
    return undef;
}

1;
